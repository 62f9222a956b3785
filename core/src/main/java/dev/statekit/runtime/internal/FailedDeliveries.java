package dev.statekit.runtime.internal;

import dev.statekit.runtime.bus.BusMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * Settles deliveries that failed for a reason other than their function (the store, a conflict that
 * kept coming, an earlier commit's effects that could not go out): every such failure counts toward
 * {@code maxAttempts}. Before it, the delivery fails for now and comes again. On its last attempt a
 * queue message goes to the dead-letter queue with the error, so that the queue's own redrive never
 * moves it there without one; its dead letter's key makes sending it again safe even when the store
 * could not tell whether it was applied. A fired timer's message is dropped instead: its timer,
 * still stored, sends it again.
 */
final class FailedDeliveries {
  private FailedDeliveries() {}

  static void settle(RuntimeSettings settings, List<Delivery> deliveries, String error) {
    List<Delivery> last = new ArrayList<>();
    for (Delivery d : deliveries) {
      if (!d.lastAttempt(settings.maxAttempts)) {
        d.settle(DeliveryOutcome.FAILED, error);
      } else if (DeadLetters.firedTimer(d) != null) {
        d.settle(DeliveryOutcome.DEFERRED, error + "; its timer sends it again");
      } else {
        last.add(d);
      }
    }
    if (!last.isEmpty()) {
      deadLetter(settings, last, error);
    }
  }

  private static void deadLetter(
      RuntimeSettings settings, List<Delivery> deliveries, String error) {
    IllegalStateException cause =
        new IllegalStateException(error + " (failed on every one of its attempts)");
    List<BusMessage> letters = new ArrayList<>();
    List<Delivery> owners = new ArrayList<>();
    for (Delivery d : deliveries) {
      for (InboundInvocation inbound : d.invocations) {
        letters.add(DeadLetters.message(DeadLetters.of(d, inbound, cause, "unknown")));
        owners.add(d);
      }
    }
    java.util.Set<Delivery> refused = DeadLetters.send(settings.deadLetters, letters, owners);
    for (Delivery d : deliveries) {
      if (refused.contains(d)) {
        d.settle(DeliveryOutcome.FAILED, error + "; and the dead-letter queue refused it");
      } else {
        d.settle(DeliveryOutcome.DEAD_LETTERED, error);
      }
    }
  }
}
