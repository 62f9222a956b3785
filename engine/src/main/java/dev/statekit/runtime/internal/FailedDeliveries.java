package dev.statekit.runtime.internal;

import dev.statekit.bus.BusMessage;
import dev.statekit.runtime.store.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Settles deliveries that failed for a reason other than their function (the store, a conflict that
 * kept coming, an earlier commit's effects that could not go out): every such failure counts toward
 * {@code maxAttempts}. Before it, the delivery fails for now and comes again. On its last attempt a
 * queue message goes to the dead-letter queue with the error, so that the queue's own redrive never
 * moves it there without one. A fired timer's message is dropped instead, when the failure may
 * pass: its timer, still stored, sends it again. A failure that cannot pass (a commit DynamoDB
 * would refuse however often it is sent) dead-letters at once, a fired timer's message with its
 * timer.
 */
final class FailedDeliveries {
  private FailedDeliveries() {}

  /** A failure that may pass, after which the store could not tell whether they were applied. */
  static void settle(RuntimeSettings settings, List<Delivery> deliveries, String error) {
    settle(settings, deliveries, error, false, "unknown");
  }

  /**
   * Settles {@code deliveries} after {@code error}.
   *
   * @param permanent whether it cannot pass: sending them again cannot help
   * @param applied what their dead letters say of whether they were applied: "no" only when no
   *     other receive can apply them either (a commit DynamoDB refuses whatever the state), else
   *     "unknown"
   */
  static void settle(
      RuntimeSettings settings,
      List<Delivery> deliveries,
      String error,
      boolean permanent,
      String applied) {
    List<Delivery> last = new ArrayList<>();
    for (Delivery d : deliveries) {
      if (!d.fromQueue) {
        d.settle(permanent ? DeliveryOutcome.DEAD_LETTERED : DeliveryOutcome.FAILED, error);
      } else if (!permanent && !d.lastAttempt(settings.maxAttempts)) {
        d.settle(DeliveryOutcome.FAILED, error);
      } else if (!permanent && DeadLetters.firedTimer(d) != null) {
        d.settle(DeliveryOutcome.DEFERRED, error + "; its timer sends it again");
      } else {
        last.add(d);
      }
    }
    if (!last.isEmpty()) {
      deadLetter(settings, last, error, permanent, applied);
    }
  }

  private static void deadLetter(
      RuntimeSettings settings,
      List<Delivery> deliveries,
      String error,
      boolean permanent,
      String applied) {
    IllegalStateException cause =
        new IllegalStateException(
            permanent ? error : error + " (failed on every one of its attempts)");
    List<BusMessage> letters = new ArrayList<>();
    List<Delivery> owners = new ArrayList<>();
    for (Delivery d : deliveries) {
      for (InboundInvocation inbound : d.invocations) {
        letters.add(DeadLetters.message(DeadLetters.of(d, inbound, cause, applied)));
        owners.add(d);
      }
    }
    Set<Delivery> refused = DeadLetters.send(settings.deadLetters, letters, owners);
    for (Delivery d : deliveries) {
      if (refused.contains(d)) {
        d.settle(DeliveryOutcome.FAILED, error + "; and the dead-letter queue refused it");
      } else {
        d.settle(DeliveryOutcome.DEAD_LETTERED, error);
        dropFiredTimer(settings, d);
      }
    }
  }

  /**
   * A fired timer's message is dead-lettered once: its timer goes too (with its owner's token), or
   * the sweep would send it again, to be dead-lettered again, forever.
   */
  static void dropFiredTimer(RuntimeSettings settings, Delivery d) {
    InboundInvocation fired = DeadLetters.firedTimer(d);
    if (fired == null) {
      return;
    }
    try {
      settings.store.dropTimer(fired.timer, fired.caller, fired.timerToken);
    } catch (StoreException e) {
      // It comes again (or, on its last attempt, with its timer's next send); its dead letter's id
      // is the timer's, so the dead-letter queue drops the repeat within its deduplication window.
      d.settle(
          d.lastAttempt(settings.maxAttempts) ? DeliveryOutcome.DEFERRED : DeliveryOutcome.FAILED,
          "Dead-lettered, but its timer could not be removed: " + e.getMessage());
    }
  }
}
