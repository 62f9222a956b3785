package dev.statekit.runtime.internal;

import dev.statekit.function.Address;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.OutboxEntry;
import dev.statekit.runtime.store.StoreException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Delivers the outboxes whose batch did not finish delivering them (it died, or a sink or the queue
 * refused), found through their registrations once these are due: so nothing a commit sent waits
 * for the address's next message. Each address's latest state is read; an outbox is delivered if
 * its state still names the registration (a later commit delivered it first otherwise). What keeps
 * failing is dead-lettered once tried {@code maxAttempts} times.
 */
final class OutboxSweeper {
  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.of(OutboxSweeper.class);

  private final RuntimeSettings settings;
  private final OutboxDelivery delivery;

  OutboxSweeper(RuntimeSettings settings) {
    this.settings = settings;
    this.delivery = new OutboxDelivery(settings);
  }

  /** One sweep; returns how many outboxes it settled and how many it left. */
  int[] sweep() {
    long now = settings.clock.millis();
    long triedBefore = now - settings.outboxSweepAfter.toMillis();
    List<Callable<List<OutboxEntry>>> reads = new ArrayList<>();
    for (int shard = 0; shard < RuntimeSettings.OUTBOX_SHARDS; shard++) {
      int s = shard;
      reads.add(() -> settings.store.dueOutboxes(s, now, triedBefore, settings.sweepLimit));
    }
    List<Callable<Void>> work = new ArrayList<>();
    AtomicInteger settled = new AtomicInteger();
    AtomicInteger left = new AtomicInteger();
    for (List<OutboxEntry> due : settings.parallel.all(reads)) {
      for (OutboxEntry entry : due) {
        work.add(
            () -> {
              sweep(entry, now, settled, left);
              return null;
            });
      }
    }
    settings.parallel.all(work);
    return new int[] {settled.get(), left.get()};
  }

  private void sweep(OutboxEntry entry, long now, AtomicInteger settled, AtomicInteger left) {
    try {
      List<PendingOutbox> pending = new ArrayList<>();
      List<Address> done = new ArrayList<>();
      if (!entry.addresses().isEmpty()) {
        for (Map.Entry<Address, AddressState> state :
            settings.store.loadLatest(entry.addresses()).entrySet()) {
          PendingOutbox outbox = Outboxes.of(state.getValue());
          if (outbox != null && entry.key().equals(state.getValue().outboxKey())) {
            pending.add(outbox);
          } else {
            if (state.getValue().version() == 0) {
              // The commit that registered the outbox wrote the item; only its deletion (TTL,
              // or by hand) leaves none. What the outbox held is gone: say so, it is a loss.
              LOG.error(
                  "The effects "
                      + state.getKey()
                      + " left to deliver under "
                      + entry.key().asString()
                      + " are lost: the address's item is gone (deleted by TTL or by hand) before"
                      + " they went out or were dead-lettered. Check the table's TTL attribute and"
                      + " that nothing deletes the runtime's items",
                  null);
            }
            done.add(state.getKey());
          }
        }
      }
      Map<Address, Set<String>> out = new HashMap<>();
      pending.forEach(outbox -> out.put(outbox.address(), entry.tries(outbox.address()).out()));
      Map<Address, Undelivered> failed = delivery.deliver(pending, true, out);
      Map<Address, Set<String>> stillPending = new HashMap<>();
      for (PendingOutbox outbox : pending) {
        Undelivered undelivered = failed.get(outbox.address());
        if (undelivered == null
            || OutboxOutcomes.deadLetterIfLast(
                settings, outbox, undelivered, entry.attempts(outbox.address()) + 1)) {
          done.add(outbox.address());
          settled.incrementAndGet();
        } else {
          stillPending.put(
              outbox.address(), Undelivered.out(outbox, undelivered, out.get(outbox.address())));
        }
      }
      if (stillPending.isEmpty()
          && settings.store.removeOutboxes(entry.key(), entry.registrations())) {
        return;
      }
      if (!done.isEmpty()) {
        settings.store.settleOutboxes(entry.key(), done);
      }
      if (!stillPending.isEmpty()) {
        left.addAndGet(stillPending.size());
        settings.store.outboxesTried(entry.key(), stillPending, now);
      }
    } catch (StoreException e) {
      // The registration stays; the next sweep tries again.
      left.incrementAndGet();
    }
  }
}
