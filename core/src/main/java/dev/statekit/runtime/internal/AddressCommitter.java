package dev.statekit.runtime.internal;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.statekit.function.Address;
import dev.statekit.runtime.internal.data.Outbox;
import dev.statekit.runtime.internal.data.RuntimeData;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.Commit;
import dev.statekit.runtime.store.CommitConflictException;
import dev.statekit.runtime.store.StateTooLargeException;
import dev.statekit.runtime.store.StoreException;
import dev.statekit.runtime.store.TimerKey;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One address's share of a batch: drop repeats, run the rest, make sure the previous commit's
 * outbox is out, commit once (conditionally on the version read), and on a conflict read again and
 * redo. Settles each of the address's deliveries and returns the new outbox to deliver. Runs in two
 * steps so that a batch's commits leave together, after all the running.
 */
final class AddressCommitter {
  private static final SecureRandom INCARNATIONS = new SecureRandom();

  private final RuntimeSettings settings;
  private final OutboxDelivery delivery;
  private final Address address;
  private final List<Delivery> deliveries;
  private final List<InboundInvocation> invocations = new ArrayList<>();
  private final Map<String, String> firstSequenceByGroup;
  private AddressState loaded;
  private Set<TimerKey> existingTimers;
  private CommitPlan prepared;

  AddressCommitter(
      RuntimeSettings settings,
      OutboxDelivery delivery,
      Address address,
      List<Delivery> deliveries,
      Map<String, String> firstSequenceByGroup,
      AddressState loaded,
      Set<TimerKey> existingTimers) {
    this.settings = settings;
    this.delivery = delivery;
    this.address = address;
    this.deliveries = deliveries;
    this.firstSequenceByGroup = firstSequenceByGroup;
    this.loaded = loaded;
    this.existingTimers = existingTimers;
    deliveries.forEach(d -> invocations.addAll(d.invocations));
  }

  /**
   * Step one: drops repeats, runs the rest and prepares the commit (no request, unless the previous
   * outbox must go out first). Commits of a batch then leave together, in step two.
   */
  Void prepare() {
    try {
      prepared = prepareOnce();
    } catch (StoreException e) {
      failed(e);
    }
    return null;
  }

  /** Step two: commits what step one prepared; after a conflict, reads again and redoes both. */
  PendingOutbox commit() {
    try {
      for (int attempt = 1; prepared != null; attempt++) {
        try {
          return commitPrepared();
        } catch (CommitConflictException conflict) {
          if (attempt > settings.maxConflictRetries) {
            settleAll(
                "Kept conflicting with concurrent commits of "
                    + address
                    + " ("
                    + conflict.getMessage()
                    + "); it comes again");
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
    Set<InboundInvocation> duplicates =
        RepeatFilter.of(settings, deliveries, AppliedMarks.of(data), existingTimers);
    long incarnation = data.getIncarnation() != 0 ? data.getIncarnation() : newIncarnation();
    InvocationRunner runs =
        new InvocationRunner(settings, loaded, invocations, duplicates, incarnation, now);
    CommitPlan planned = new CommitPlanner(settings, loaded, data, deliveries, runs, now).plan();
    RunResult plan = planned.plan();
    Outbox previous = loaded.outboxVersion() > 0 && data.hasOutbox() ? data.getOutbox() : null;
    boolean previousPending = previous != null && !delivered(previous);
    if (!plan.needsCommit()) {
      if (previousPending && !duplicates.isEmpty()) {
        // Repeats are answered as done: their effects must be out first.
        if (!deliverPrevious(previous)) {
          return null;
        }
        recordReceipt();
      }
      settle(plan);
      return null;
    }
    if (previousPending && !deliverPrevious(previous)) {
      return null;
    }
    return planned;
  }

  private PendingOutbox commitPrepared() {
    NextState next = prepared.next();
    try {
      settings.store.commit(new Commit(next.state(), loaded.version(), next.timerChanges()));
    } catch (StateTooLargeException e) {
      settleAll(e.getMessage());
      return null;
    }
    settings.hook.reached(FaultHook.Step.COMMITTED, address);
    settle(prepared.plan());
    return next.outbox() == null
        ? null
        : new PendingOutbox(address, next.state().version(), next.outbox());
  }

  private void failed(StoreException e) {
    prepared = null;
    settleAll("The state store failed for " + address + ": " + e.getMessage() + "; it comes again");
  }

  /**
   * Whether the previous commit's outbox is known to be out: a receipt, this process delivered it,
   * or the batch starts past it in the queue group whose message produced it (FIFO hands out a
   * group's next message only after the earlier ones were deleted, which happens only after their
   * outbox was delivered).
   */
  private boolean delivered(Outbox previous) {
    if (loaded.outboxDelivered()
        || settings.delivered.delivered(
            address, previous.getIncarnation(), loaded.outboxVersion())) {
      return true;
    }
    String first = firstSequenceByGroup.get(previous.getProofGroupId());
    return !previous.getProofGroupId().isEmpty()
        && first != null
        && AppliedMarks.compareSequences(first, previous.getProofSequence()) > 0;
  }

  private boolean deliverPrevious(Outbox previous) {
    Map<Address, String> failed =
        delivery.deliver(List.of(new PendingOutbox(address, loaded.outboxVersion(), previous)));
    if (!failed.isEmpty()) {
      settleAll(
          "The messages of an earlier commit of "
              + address
              + " could not be delivered yet ("
              + failed.get(address)
              + "); it comes again");
      return false;
    }
    settings.delivered.record(address, previous.getIncarnation(), loaded.outboxVersion());
    return true;
  }

  /**
   * A random incarnation for an address's first commit; never 0, which means none. Drawn from
   * {@link SecureRandom}: a SnapStart snapshot taken after priming would otherwise hand every
   * restored environment the same thread-local seed, and so the same incarnations.
   */
  private static long newIncarnation() {
    long incarnation;
    do {
      incarnation = INCARNATIONS.nextLong();
    } while (incarnation == 0);
    return incarnation;
  }

  private void recordReceipt() {
    try {
      settings.store.recordDelivery(address, loaded.outboxVersion());
    } catch (StoreException e) {
      // Only saves a later reader a repeated delivery; the delivery itself went out.
    }
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

  private void settleAll(String error) {
    deliveries.forEach(d -> d.settle(DeliveryOutcome.FAILED, error));
  }

  private static RuntimeData runtimeData(AddressState state) {
    try {
      return RuntimeData.parseFrom(state.runtimeData());
    } catch (InvalidProtocolBufferException e) {
      throw new StoreException(
          StoreException.Reason.INVALID_REQUEST,
          "The runtime data of " + state.address() + " is unreadable: " + e.getMessage(),
          e);
    }
  }
}
