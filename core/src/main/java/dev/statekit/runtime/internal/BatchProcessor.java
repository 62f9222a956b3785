package dev.statekit.runtime.internal;

import dev.statekit.function.Address;
import dev.statekit.function.UnknownFunctionException;
import dev.statekit.runtime.bus.BusMessage;
import dev.statekit.runtime.store.LoadResult;
import dev.statekit.runtime.store.OutboxKey;
import dev.statekit.runtime.store.StoreException;
import dev.statekit.runtime.store.TimerKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Processes one batch of deliveries: read every address's state (one batch read), run each address
 * and prepare its commit (in parallel), register the outboxes the commits carry (one write, only if
 * any does), commit each address (in parallel, one conditional write each), deliver every outbox
 * (requests batched across addresses), and take the delivered ones off their registration (one
 * write). A registration outlives a crash anywhere after it, so a sweep delivers what a crashed
 * batch committed. Unreadable queue messages go to the dead-letter queue meanwhile. Each delivery
 * is settled; a {@link FaultHook} failure leaves as a crash would.
 */
public final class BatchProcessor {
  private final RuntimeSettings settings;
  private final OutboxDelivery delivery;

  /** A processor with these settings. */
  public BatchProcessor(RuntimeSettings settings) {
    this.settings = settings;
    this.delivery = new OutboxDelivery(settings);
  }

  void process(List<Delivery> deliveries) {
    Map<Address, List<Delivery>> byAddress = new LinkedHashMap<>();
    List<Delivery> unreadable = new ArrayList<>();
    Set<TimerKey> timers = new HashSet<>();
    for (Delivery d : deliveries) {
      if (d.invalid == null && settings.functions.get(d.target.type()).isEmpty()) {
        d.invalid = new UnknownFunctionException(d.target.type(), settings.functions.types());
      }
      if (d.invalid != null) {
        unreadable.add(d);
        continue;
      }
      byAddress.computeIfAbsent(d.target, a -> new ArrayList<>()).add(d);
      d.invocations.forEach(
          i -> {
            if (i.timer != null) {
              timers.add(i.timer);
            }
          });
    }
    LoadResult loaded = load(byAddress, timers, unreadable);
    if (loaded == null) {
      return;
    }
    settings.hook.reached(FaultHook.Step.LOADED, null);
    OutboxKey outboxKey = settings.newOutboxKey();
    List<AddressCommitter> work = new ArrayList<>();
    byAddress.forEach(
        (address, addressDeliveries) ->
            work.add(
                new AddressCommitter(
                    settings,
                    delivery,
                    address,
                    addressDeliveries,
                    outboxKey,
                    loaded.states().get(address),
                    loaded.existingTimers())));
    List<Callable<Void>> runs = new ArrayList<>();
    work.forEach(address -> runs.add(address::prepare));
    settings.parallel.all(runs);
    register(outboxKey, work);
    settings.hook.reached(FaultHook.Step.REGISTERED, null);
    List<Callable<PendingOutbox>> commits = new ArrayList<>();
    work.forEach(address -> commits.add(address::commit));
    List<PendingOutbox> outboxes = new ArrayList<>();
    for (PendingOutbox outbox : settings.parallel.all(commits)) {
      if (outbox != null) {
        outboxes.add(outbox);
      }
    }
    Map<Address, Undelivered> failed = delivery.deliver(outboxes, false);
    Map<Address, AddressCommitter> committers = new LinkedHashMap<>();
    work.forEach(c -> committers.put(c.address(), c));
    Set<Address> pending = new HashSet<>();
    for (PendingOutbox outbox : outboxes) {
      AddressCommitter committer = committers.get(outbox.address());
      Undelivered undelivered = failed.get(outbox.address());
      if (undelivered != null
          && !(committer.lastAttempt()
              && OutboxOutcomes.deadLetter(settings, outbox, undelivered, attempts(committer)))) {
        pending.add(outbox.address());
        undeliveredYet(committer, undelivered);
        continue;
      }
      settings.delivered.record(
          outbox.address(), outbox.outbox().getIncarnation(), outbox.version());
    }
    settings.hook.reached(FaultHook.Step.DELIVERED, null);
    settle(outboxKey, work, pending);
    settings.hook.reached(FaultHook.Step.SETTLED, null);
  }

  /** Registers the outboxes the prepared commits carry, in one write; none may commit without. */
  private void register(OutboxKey key, List<AddressCommitter> work) {
    List<AddressCommitter> sending = new ArrayList<>();
    work.forEach(
        c -> {
          if (c.needsRegistration()) {
            sending.add(c);
          }
        });
    if (sending.isEmpty()) {
      return;
    }
    List<Address> addresses = new ArrayList<>();
    sending.forEach(c -> addresses.add(c.address()));
    try {
      settings.store.registerOutboxes(key, addresses);
      sending.forEach(AddressCommitter::registered);
    } catch (StoreException e) {
      sending.forEach(c -> c.notRegistered(e));
    }
  }

  /**
   * Takes off the registration what needs no sweep: every address but those whose outbox did not go
   * out, or whose commit may have been written though it failed.
   */
  private void settle(OutboxKey key, List<AddressCommitter> work, Set<Address> pending) {
    List<Address> done = new ArrayList<>();
    boolean any = false;
    for (AddressCommitter c : work) {
      if (!c.isRegistered()) {
        continue;
      }
      any = true;
      if (!pending.contains(c.address()) && !c.maybeCommitted()) {
        done.add(c.address());
      }
    }
    if (!any) {
      return;
    }
    try {
      if (done.size() == work.stream().filter(AddressCommitter::isRegistered).count()) {
        settings.store.removeOutboxes(key, -1);
      } else if (!done.isEmpty()) {
        settings.store.settleOutboxes(key, done);
      }
    } catch (StoreException e) {
      // The sweep takes them off later, after delivering them again (receivers drop repeats).
    }
  }

  /**
   * A committed outbox did not go out. Queue messages come again (their group waits, so the
   * address's effects keep their order) and deliver it first; a direct invocation stays applied,
   * and the sweep delivers its effects.
   */
  private static void undeliveredYet(AddressCommitter committer, Undelivered undelivered) {
    String also =
        committer.lastAttempt()
            ? "; and the dead-letter queue refused what could not be delivered"
            : "";
    for (Delivery d : committer.deliveries()) {
      if (d.fromQueue && d.outcome != DeliveryOutcome.FAILED) {
        d.settle(
            DeliveryOutcome.FAILED,
            "Applied, but its effects could not be delivered yet ("
                + undelivered.reason()
                + "); they are delivered before anything else of "
                + committer.address()
                + also);
      }
    }
  }

  private static int attempts(AddressCommitter committer) {
    return committer.deliveries().stream().mapToInt(d -> d.attempts).max().orElse(1);
  }

  /**
   * Reads the states while unreadable messages go to the dead-letter queue; null if reading failed.
   */
  private LoadResult load(
      Map<Address, List<Delivery>> byAddress, Set<TimerKey> timers, List<Delivery> unreadable) {
    List<Callable<LoadResult>> steps = new ArrayList<>();
    steps.add(
        () -> {
          if (byAddress.isEmpty()) {
            return null;
          }
          try {
            return settings.store.load(byAddress.keySet(), timers);
          } catch (StoreException e) {
            List<Delivery> all = new ArrayList<>();
            byAddress.values().forEach(all::addAll);
            FailedDeliveries.settle(settings, all, "The state store failed: " + e.getMessage());
            return null;
          }
        });
    steps.add(
        () -> {
          deadLetterUnreadable(unreadable);
          return null;
        });
    return settings.parallel.all(steps).get(0);
  }

  private void deadLetterUnreadable(List<Delivery> unreadable) {
    List<BusMessage> letters = new ArrayList<>();
    List<Delivery> owners = new ArrayList<>();
    for (Delivery d : unreadable) {
      d.settle(DeliveryOutcome.DEAD_LETTERED, d.invalid.getMessage());
      if (d.fromQueue) {
        for (BusMessage letter : deadLetters(d)) {
          letters.add(letter);
          owners.add(d);
        }
      }
    }
    Set<Delivery> refused = DeadLetters.send(settings.deadLetters, letters, owners);
    refused.forEach(
        d ->
            d.settle(
                DeliveryOutcome.FAILED,
                "Not applicable here, and the dead-letter queue refused its dead letter"));
    new java.util.LinkedHashSet<>(owners)
        .forEach(
            d -> {
              if (!refused.contains(d)) {
                dropTimer(d);
              }
            });
  }

  /**
   * The dead letters of a message that cannot be applied here: one that could not be read goes as
   * it came; one whose function is not registered (removed by a deploy, perhaps after an earlier
   * copy was applied) goes per invocation, with the key that makes sending it again safe.
   */
  private static List<BusMessage> deadLetters(Delivery d) {
    List<BusMessage> letters = new ArrayList<>();
    if (d.invalid instanceof UnknownFunctionException && !d.invocations.isEmpty()) {
      for (InboundInvocation inbound : d.invocations) {
        letters.add(DeadLetters.message(DeadLetters.of(d, inbound, d.invalid, "unknown")));
      }
    } else {
      letters.add(DeadLetters.message(DeadLetters.unreadable(d)));
    }
    return letters;
  }

  /**
   * A fired timer's message is dead-lettered once: its timer goes too (with its owner's token), or
   * the sweep would send it again, to be dead-lettered again, forever.
   */
  private void dropTimer(Delivery d) {
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
