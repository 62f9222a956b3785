package dev.statekit.runtime.internal;

import dev.statekit.function.Address;
import dev.statekit.runtime.internal.data.Outbox;
import dev.statekit.runtime.internal.data.RuntimeData;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.Commit;
import dev.statekit.runtime.store.CommitConflictException;
import dev.statekit.runtime.store.OutboxKey;
import dev.statekit.runtime.store.SpilledMark;
import dev.statekit.runtime.store.StateTooLargeException;
import dev.statekit.runtime.store.StoreException;
import dev.statekit.runtime.store.StoreUnavailableException;
import dev.statekit.runtime.store.TimerKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One address's share of a batch: drop repeats, run the rest, make sure the previous commit's
 * outbox is out, commit once (conditionally on the version read), and on a conflict read again and
 * redo. Settles each of the address's deliveries and returns the new outbox to deliver. Runs in two
 * steps so that a batch's commits leave together, after all the running and after the batch has
 * registered the outboxes they carry.
 */
final class AddressCommitter {
  private final RuntimeSettings settings;
  private final OutboxDelivery delivery;
  private final Address address;
  private final List<Delivery> deliveries;
  private final List<InboundInvocation> invocations = new ArrayList<>();
  private final OutboxKey outboxKey;
  private AddressState loaded;
  private Set<TimerKey> existingTimers;
  private CommitPlan prepared;
  private boolean registered;
  private boolean maybeCommitted;

  AddressCommitter(
      RuntimeSettings settings,
      OutboxDelivery delivery,
      Address address,
      List<Delivery> deliveries,
      OutboxKey outboxKey,
      AddressState loaded,
      Set<TimerKey> existingTimers) {
    this.settings = settings;
    this.delivery = delivery;
    this.address = address;
    this.deliveries = deliveries;
    this.outboxKey = outboxKey;
    this.loaded = loaded;
    this.existingTimers = existingTimers;
    deliveries.forEach(d -> invocations.addAll(d.invocations));
  }

  Address address() {
    return address;
  }

  List<Delivery> deliveries() {
    return deliveries;
  }

  /** Whether the prepared commit carries an outbox, which must be registered before it. */
  boolean needsRegistration() {
    return prepared != null && prepared.next() != null && prepared.next().outbox() != null;
  }

  /** The batch registered this address's outbox under its key. */
  void registered() {
    registered = true;
  }

  boolean isRegistered() {
    return registered;
  }

  /** Whether a commit may have been written though it was reported failed. */
  boolean maybeCommitted() {
    return maybeCommitted;
  }

  /** Whether any of the address's messages is on its last attempt. */
  boolean lastAttempt() {
    return deliveries.stream().anyMatch(d -> d.lastAttempt(settings.maxAttempts));
  }

  /**
   * Step one: drops repeats, runs the rest and prepares the commit (no request, unless marks must
   * be read or the previous outbox must go out first). Commits of a batch then leave together.
   */
  Void prepare() {
    try {
      prepared = prepareOnce();
    } catch (StoreException e) {
      failed(e);
    }
    return null;
  }

  /** The batch could not register the outbox: nothing may be committed. */
  void notRegistered(StoreException e) {
    failed(e);
  }

  /** Step two: commits what step one prepared; after a conflict, reads again and redoes both. */
  PendingOutbox commit() {
    try {
      for (int attempt = 1; prepared != null; attempt++) {
        try {
          return commitPrepared();
        } catch (CommitConflictException conflict) {
          if (attempt > settings.maxConflictRetries) {
            FailedDeliveries.settle(
                settings,
                deliveries,
                "Kept conflicting with concurrent commits of "
                    + address
                    + " ("
                    + conflict.getMessage()
                    + ")");
            return null;
          }
          settings.conflictBackoff.pause(attempt);
          reload();
          prepared = prepareOnce();
        }
      }
    } catch (StoreException e) {
      failed(e);
    }
    return null;
  }

  private CommitPlan prepareOnce() {
    long now = settings.clock.millis();
    RuntimeData data = runtimeData(loaded);
    Set<String> lookups = RepeatFilter.lookups(deliveries, AppliedMarks.of(data, Map.of()), now);
    Map<String, SpilledMark> spilled =
        lookups.isEmpty() ? Map.of() : settings.store.spilledMarks(address, lookups);
    Set<InboundInvocation> duplicates =
        RepeatFilter.of(settings, deliveries, AppliedMarks.of(data, spilled), existingTimers);
    long incarnation = data.getIncarnation() != 0 ? data.getIncarnation() : newIncarnation();
    InvocationRunner runs =
        new InvocationRunner(settings, loaded, invocations, duplicates, incarnation, now);
    CommitPlan planned =
        new CommitPlanner(settings, loaded, data, spilled, deliveries, runs, now, outboxKey).plan();
    RunResult plan = planned.plan();
    Outbox previous = loaded.outboxVersion() > 0 && data.hasOutbox() ? data.getOutbox() : null;
    if (!plan.needsCommit() && duplicates.isEmpty()) {
      // Nothing to answer as done: whatever the previous outbox's state, it can wait.
      settle(plan);
      return null;
    }
    // Repeats are answered as done, and a commit replaces the outbox: either way the previous
    // outbox must be known out first.
    if (previous != null && !delivered(previous) && !deliverPrevious(previous)) {
      return null;
    }
    if (!plan.needsCommit()) {
      settle(plan);
      return null;
    }
    if (!planned.next().spills().isEmpty()) {
      settings.store.spillMarks(address, planned.next().spills());
    }
    return planned;
  }

  private PendingOutbox commitPrepared() {
    NextState next = prepared.next();
    if (next.outbox() != null
        && settings.clock.millis()
            > outboxKey.dueAtMillis() - settings.outboxSweepAfter.toMillis() / 2) {
      // Past half its time the sweep may soon take the registration over and, finding no commit
      // that names it, drop it: an outbox committed after that would wait for traffic.
      FailedDeliveries.settle(
          settings,
          deliveries,
          "The batch of "
              + address
              + " ran longer than half of outboxSweepAfter ("
              + settings.outboxSweepAfter
              + ") before its commit; nothing was written. Keep outboxSweepAfter above twice the"
              + " function's timeout");
      return null;
    }
    if (next.outbox() != null && !registered) {
      // A redo after a conflict sends where the first run did not: register it first.
      settings.store.registerOutboxes(outboxKey, List.of(address));
      registered = true;
    }
    try {
      settings.store.commit(new Commit(next.state(), loaded.version(), next.timerChanges()));
    } catch (StateTooLargeException e) {
      FailedDeliveries.settle(settings, deliveries, e.getMessage());
      return null;
    } catch (StoreUnavailableException e) {
      if (!writtenAfterAll(next)) {
        throw e;
      }
    }
    settings.hook.reached(FaultHook.Step.COMMITTED, address);
    settle(prepared.plan());
    return next.outbox() == null
        ? null
        : new PendingOutbox(address, next.state().version(), next.outbox());
  }

  /**
   * Whether a commit the store did not answer was written after all, read back: it was if the
   * stored state is the one it wrote, it was not if an older one is stored. A later version may or
   * may not stand on it, and a store that does not answer tells nothing: then its outbox stays
   * registered for the sweep, and its messages come again to find out.
   */
  private boolean writtenAfterAll(NextState next) {
    try {
      AddressState stored = settings.store.reload(address);
      if (stored.version() == next.state().version()
          && Arrays.equals(stored.runtimeData(), next.state().runtimeData())) {
        return true;
      }
      maybeCommitted = stored.version() >= next.state().version();
    } catch (StoreException unanswered) {
      maybeCommitted = true;
    }
    return false;
  }

  private void failed(StoreException e) {
    prepared = null;
    String error = "The state store failed for " + address + ": " + e.getMessage();
    if (maybeCommitted) {
      // Dead-lettering a message whose commit may hold its effects could repeat them: it comes
      // again, even on its last attempt, and its next attempt reads what was written.
      deliveries.forEach(
          d ->
              d.settle(
                  DeliveryOutcome.FAILED,
                  error + "; the store did not answer whether its commit was written"));
      return;
    }
    FailedDeliveries.settle(settings, deliveries, error);
  }

  /**
   * Whether the previous commit's outbox is known to be out: this process delivered it, or it is no
   * longer registered (whoever delivered it or dead-lettered its effects took it off).
   */
  private boolean delivered(Outbox previous) {
    if (settings.delivered.delivered(address, previous.getIncarnation(), loaded.outboxVersion())) {
      return true;
    }
    OutboxKey key = loaded.outboxKey();
    return key != null && !settings.store.outboxPending(key, address);
  }

  /**
   * Delivers the previous commit's outbox (again: it may have gone out before). If it cannot go out
   * and one of the address's messages is on its last attempt, what did not go out is dead-lettered
   * with the error instead, and the address carries on.
   */
  private boolean deliverPrevious(Outbox previous) {
    PendingOutbox pending = new PendingOutbox(address, loaded.outboxVersion(), previous);
    Undelivered failed = delivery.deliver(List.of(pending), true).get(address);
    if (failed != null
        && !(lastAttempt() && OutboxOutcomes.deadLetter(settings, pending, failed, attempts()))) {
      FailedDeliveries.settle(
          settings,
          deliveries,
          "The effects of an earlier commit of "
              + address
              + " could not be delivered yet ("
              + failed.reason()
              + ")");
      return false;
    }
    settings.delivered.record(address, previous.getIncarnation(), loaded.outboxVersion());
    if (loaded.outboxKey() != null) {
      OutboxOutcomes.settle(settings, loaded.outboxKey(), List.of(address));
    }
    return true;
  }

  private int attempts() {
    return deliveries.stream().mapToInt(d -> d.attempts).max().orElse(1);
  }

  /**
   * A random incarnation for an address's first commit; never 0, which means none. Drawn from the
   * settings' source: a SnapStart snapshot taken after priming would hand every restored
   * environment the same thread-local seed, and so the same incarnations.
   */
  private long newIncarnation() {
    long incarnation;
    do {
      incarnation = settings.random.nextLong();
    } while (incarnation == 0);
    return incarnation;
  }

  private void reload() {
    loaded = settings.store.reload(address);
    Set<TimerKey> existing = new HashSet<>();
    for (InboundInvocation inbound : invocations) {
      if (inbound.timer != null && settings.store.timerExists(inbound.timer)) {
        existing.add(inbound.timer);
      }
    }
    existingTimers = existing;
  }

  private void settle(RunResult plan) {
    for (Delivery d : deliveries) {
      DeliveryOutcome outcome = null;
      String error = null;
      for (InboundInvocation inbound : d.invocations) {
        outcome = DeliveryOutcome.combine(outcome, plan.outcomes.get(inbound));
        if (error == null) {
          error = plan.errors.get(inbound);
        }
      }
      d.settle(outcome, error);
    }
  }

  private static RuntimeData runtimeData(AddressState state) {
    return Outboxes.data(state);
  }
}
