package dev.statekit.runtime.internal;

import dev.statekit.function.Address;
import dev.statekit.function.UnknownFunctionException;
import dev.statekit.runtime.bus.BusException;
import dev.statekit.runtime.bus.BusMessage;
import dev.statekit.runtime.bus.MessageBus;
import dev.statekit.runtime.store.LoadResult;
import dev.statekit.runtime.store.StoreException;
import dev.statekit.runtime.store.TimerKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Processes one batch of deliveries in three round trips: read every address's state (one batch
 * read), run and commit each address (in parallel, one conditional write each), deliver every
 * outbox (requests batched across addresses). Unreadable queue messages go to the dead-letter queue
 * meanwhile. Each delivery is settled; a {@link FaultHook} failure leaves as a crash would.
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
    Map<String, String> firstSequenceByGroup = new HashMap<>();
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
      if (d.hasQueueSequence()) {
        firstSequenceByGroup.merge(
            d.groupId, d.sequence, (a, b) -> AppliedMarks.compareSequences(a, b) <= 0 ? a : b);
      }
    }
    LoadResult loaded = load(byAddress, timers, unreadable);
    if (loaded == null) {
      return;
    }
    settings.hook.reached(FaultHook.Step.LOADED, null);
    List<AddressCommitter> work = new ArrayList<>();
    byAddress.forEach(
        (address, addressDeliveries) ->
            work.add(
                new AddressCommitter(
                    settings,
                    delivery,
                    address,
                    addressDeliveries,
                    firstSequenceByGroup,
                    loaded.states().get(address),
                    loaded.existingTimers())));
    List<Callable<Void>> runs = new ArrayList<>();
    List<Callable<PendingOutbox>> commits = new ArrayList<>();
    for (AddressCommitter address : work) {
      runs.add(address::prepare);
      commits.add(address::commit);
    }
    settings.parallel.all(runs);
    List<PendingOutbox> outboxes = new ArrayList<>();
    for (PendingOutbox outbox : settings.parallel.all(commits)) {
      if (outbox != null) {
        outboxes.add(outbox);
      }
    }
    Map<Address, String> failed = delivery.deliver(outboxes);
    List<Callable<Void>> receipts = new ArrayList<>();
    for (PendingOutbox outbox : outboxes) {
      String reason = failed.get(outbox.address());
      if (reason != null) {
        for (Delivery d : byAddress.get(outbox.address())) {
          if (d.outcome != DeliveryOutcome.FAILED) {
            d.settle(
                DeliveryOutcome.FAILED,
                "Committed, but its messages could not be delivered yet ("
                    + reason
                    + "); they are delivered when it comes again");
          }
        }
        continue;
      }
      settings.delivered.record(
          outbox.address(), outbox.outbox().getIncarnation(), outbox.version());
      if (outbox.outbox().getProofGroupId().isEmpty()) {
        // No later queue message will prove this outbox delivered: leave a receipt.
        receipts.add(() -> receipt(outbox));
      }
    }
    if (!receipts.isEmpty()) {
      settings.parallel.all(receipts);
    }
    settings.hook.reached(FaultHook.Step.DELIVERED, null);
  }

  /**
   * Reads the states while unreadable messages go to the dead-letter queue; null if reading failed.
   */
  private LoadResult load(
      Map<Address, List<Delivery>> byAddress, Set<TimerKey> timers, List<Delivery> unreadable) {
    List<Callable<LoadResult>> steps = new ArrayList<>();
    steps.add(
        () -> {
          try {
            return settings.store.load(byAddress.keySet(), timers);
          } catch (StoreException e) {
            byAddress
                .values()
                .forEach(
                    list ->
                        list.forEach(
                            d ->
                                d.settle(
                                    DeliveryOutcome.FAILED,
                                    "The state store failed: "
                                        + e.getMessage()
                                        + "; it comes again")));
            return null;
          }
        });
    steps.add(
        () -> {
          deadLetterUnreadable(unreadable);
          return null;
        });
    return byAddress.isEmpty() && unreadable.isEmpty() ? null : settings.parallel.all(steps).get(0);
  }

  private void deadLetterUnreadable(List<Delivery> unreadable) {
    List<Delivery> queued = new ArrayList<>();
    for (Delivery d : unreadable) {
      d.settle(DeliveryOutcome.DEAD_LETTERED, d.invalid.getMessage());
      if (d.fromQueue) {
        queued.add(d);
      }
    }
    for (int from = 0; from < queued.size(); from += MessageBus.MAX_BATCH) {
      List<Delivery> chunk =
          queued.subList(from, Math.min(queued.size(), from + MessageBus.MAX_BATCH));
      List<BusMessage> letters = new ArrayList<>();
      chunk.forEach(d -> letters.add(DeadLetters.message(DeadLetters.unreadable(d))));
      try {
        settings.deadLetters.send(letters);
      } catch (BusException e) {
        e.failedIndices()
            .forEach(
                i ->
                    chunk
                        .get(i)
                        .settle(
                            DeliveryOutcome.FAILED,
                            "Unreadable, and the dead-letter queue refused it: " + e.getMessage()));
      }
    }
  }

  private Void receipt(PendingOutbox outbox) {
    try {
      settings.store.recordDelivery(outbox.address(), outbox.version());
    } catch (StoreException e) {
      // Only saves a later reader a repeated delivery; the delivery itself went out.
    }
    return null;
  }
}
