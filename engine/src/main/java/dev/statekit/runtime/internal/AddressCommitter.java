package dev.statekit.runtime.internal;

import dev.statekit.function.Address;
import dev.statekit.runtime.internal.data.CallReply;
import dev.statekit.runtime.internal.data.Outbox;
import dev.statekit.runtime.internal.data.RuntimeData;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.Commit;
import dev.statekit.runtime.store.CommitConflictException;
import dev.statekit.runtime.store.OutboxKey;
import dev.statekit.runtime.store.OutboxTries;
import dev.statekit.runtime.store.SpilledMark;
import dev.statekit.runtime.store.StoreException;
import dev.statekit.runtime.store.StoreUnavailableException;
import dev.statekit.runtime.store.Timer;
import dev.statekit.runtime.store.TimerKey;
import dev.statekit.telemetry.Metric;
import dev.statekit.telemetry.Metrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
  private final BatchDeadline deadline;
  private final Object gate = new Object();

  /** The batch stopped waiting for this address's prepare at its deadline (under the gate). */
  private boolean abandoned;

  /** The prepare settled the deliveries, or prepared a commit (under the gate). */
  private boolean decided;

  private AddressState loaded;
  private Set<TimerKey> existingTimers;
  private CommitPlan prepared;
  private boolean registered;
  private boolean committed;
  private List<Timer> wakeUps = List.of();
  private Set<InboundInvocation> repeats = Set.of();
  private boolean maybeCommitted;
  private AppliedMarks readMarks;

  AddressCommitter(
      RuntimeSettings settings,
      OutboxDelivery delivery,
      Address address,
      List<Delivery> deliveries,
      OutboxKey outboxKey,
      AddressState loaded,
      Set<TimerKey> existingTimers,
      BatchDeadline deadline) {
    this.settings = settings;
    this.delivery = delivery;
    this.address = address;
    this.deliveries = deliveries;
    this.outboxKey = outboxKey;
    this.loaded = loaded;
    this.existingTimers = existingTimers;
    this.deadline = deadline;
    deliveries.forEach(d -> invocations.addAll(d.invocations));
  }

  Address address() {
    return address;
  }

  List<Delivery> deliveries() {
    return deliveries;
  }

  /** Where this address registers its outbox in this batch. */
  OutboxKey outboxKey() {
    return outboxKey;
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

  /** Whether this batch's commit of the address is known written. */
  boolean committed() {
    return committed;
  }

  /** The timers its commit wrote that are due soon enough for a wake-up now. */
  List<Timer> wakeUps() {
    return wakeUps;
  }

  /**
   * Step one: drops repeats, runs the rest and prepares the commit (no request, unless marks must
   * be read or the previous outbox must go out first). Commits of a batch then leave together.
   */
  Void prepare() {
    CommitPlan plan = null;
    try {
      plan = prepareOnce();
    } catch (StoreException e) {
      settleLive(() -> failed(e));
    }
    synchronized (gate) {
      if (!abandoned) {
        prepared = plan;
        decided = true;
      }
    }
    return null;
  }

  /**
   * The batch stops waiting for step one at its deadline: unless step one has settled the
   * deliveries or prepared the commit meanwhile, they fail for now (nothing of them is written),
   * and whatever step one still does settles nothing. Returns whether it gave up.
   */
  boolean abandon() {
    synchronized (gate) {
      if (decided) {
        return false;
      }
      abandoned = true;
    }
    FailedDeliveries.settle(
        settings,
        deliveries,
        "The function of "
            + address
            + " had not answered when the Lambda invocation's time ran short; nothing of it was"
            + " written");
    return true;
  }

  /**
   * Settles the deliveries by {@code settling} unless the batch gave the address up: then its
   * answer is out, and they must keep the outcome it gave them.
   */
  private void settleLive(Runnable settling) {
    synchronized (gate) {
      if (!abandoned) {
        settling.run();
        decided = true;
      }
    }
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
          Metrics.add(Metric.COMMIT_CONFLICTS, 1);
          if (attempt > settings.maxConflictRetries || callDeadlinePassed()) {
            FailedDeliveries.settle(
                settings,
                deliveries,
                "Kept conflicting with concurrent commits of "
                    + address
                    + (attempt > settings.maxConflictRetries ? "" : " until the call's deadline")
                    + " ("
                    + conflict.getMessage()
                    + "); nothing of it was written");
            deliveries.forEach(d -> d.busy = d.call);
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
    readMarks = AppliedMarks.of(data, spilled);
    Set<InboundInvocation> duplicates =
        RepeatFilter.of(settings, deliveries, readMarks, existingTimers);
    repeats = duplicates;
    long incarnation = data.getIncarnation() != 0 ? data.getIncarnation() : newIncarnation();
    InvocationRunner runs =
        new InvocationRunner(settings, loaded, invocations, duplicates, incarnation, now, deadline);
    CommitPlan planned =
        new CommitPlanner(settings, loaded, data, spilled, deliveries, runs, now, outboxKey).plan();
    RunResult plan = planned.plan();
    Outbox previous = loaded.outboxVersion() > 0 && data.hasOutbox() ? data.getOutbox() : null;
    if (!plan.needsCommit() && duplicates.isEmpty()) {
      // Nothing to answer as done: whatever the previous outbox's state, it can wait.
      settleLive(() -> settle(plan));
      return null;
    }
    // Repeats are answered as done, and a commit replaces the outbox: either way the previous
    // outbox must be known out first.
    if (previous != null && !previousOut(previous, duplicates)) {
      return null;
    }
    if (!plan.needsCommit()) {
      settleLive(() -> settle(plan));
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
              + " function's timeout",
          false,
          // A batch this slow may have lost its messages to another receive that applied them.
          "unknown");
      return null;
    }
    if (next.outbox() != null && !registered) {
      // A redo after a conflict sends where the first run did not: register it first.
      settings.store.registerOutboxes(outboxKey, List.of(address));
      registered = true;
    }
    try {
      settings.store.commit(new Commit(next.state(), loaded.version(), next.timerChanges()));
    } catch (CommitConflictException | StoreUnavailableException e) {
      // A conflict may be the adapter's retry of a write whose answer was lost meeting that write.
      Boolean stands = stands(next);
      if (stands == null) {
        maybeCommitted = true;
        throw new StoreUnavailableException(
            "Could not tell whether the commit of " + address + " was written: " + e.getMessage(),
            e);
      }
      if (!stands) {
        throw e;
      }
    } catch (StoreException e) {
      if (e.isRetryable()) {
        throw e;
      }
      // One DynamoDB refuses however often it is sent; nothing was written. A repeat among them
      // was applied before (its previous outbox is out): it is done.
      List<Delivery> refused = new ArrayList<>();
      for (Delivery d : deliveries) {
        if (repeats.containsAll(d.invocations)) {
          d.settle(DeliveryOutcome.DUPLICATE, "Applied before; " + e.getMessage());
        } else {
          refused.add(d);
        }
      }
      answerCalls(null);
      FailedDeliveries.settle(settings, refused, e.getMessage(), true, "no");
      return null;
    }
    committed = true;
    wakeUps = WakeUps.committedWithWakeUp(next.timerChanges());
    settings.hook.reached(FaultHook.Step.COMMITTED, address);
    prepared.plan().committedAt(settings.clock.millis());
    settle(prepared.plan());
    return next.outbox() == null
        ? null
        : new PendingOutbox(address, next.state().version(), next.outbox());
  }

  /**
   * Whether a commit that failed without a clear answer stands, read back: the stored state names
   * it among its latest commits, or names as many as stood on it since without it ({@code false});
   * {@code null} if the store does not answer, or more commits stood on it than a state names.
   */
  private Boolean stands(NextState next) {
    AddressState stored;
    try {
      stored = settings.store.reload(address);
    } catch (StoreException unanswered) {
      return null;
    }
    RuntimeData data = runtimeData(stored);
    if (data.getCommitsList().contains(next.commitId())) {
      return true;
    }
    long since = stored.version() - next.state().version();
    return since < 0 || since < data.getCommitsCount() ? Boolean.FALSE : null;
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
   * Whether the previous commit's outbox is out: this process delivered it, it is no longer
   * registered (whoever delivered it or dead-lettered its effects took it off), or it is delivered
   * now.
   */
  private boolean previousOut(Outbox previous, Set<InboundInvocation> duplicates) {
    if (settings.delivered.delivered(address, previous.getIncarnation(), loaded.outboxVersion())) {
      return true;
    }
    OutboxKey key = loaded.outboxKey();
    Optional<OutboxTries> tries =
        key == null ? Optional.of(OutboxTries.NONE) : settings.store.outboxPending(key, address);
    return tries.isEmpty() || deliverPrevious(previous, key, tries.get(), duplicates);
  }

  /**
   * Delivers the previous commit's outbox (again: it may have gone out before). If it cannot go out
   * and this was its last try, what did not go out is dead-lettered with the error, and the address
   * carries on; else the try counts on its registration, and the address's messages wait.
   */
  private boolean deliverPrevious(
      Outbox previous, OutboxKey key, OutboxTries tries, Set<InboundInvocation> duplicates) {
    PendingOutbox pending = new PendingOutbox(address, loaded.outboxVersion(), previous);
    Undelivered failed =
        delivery.deliver(List.of(pending), true, Map.of(address, tries.out())).get(address);
    int attempts = tries.attempts() + 1;
    if (failed != null && !OutboxOutcomes.deadLetterIfLast(settings, pending, failed, attempts)) {
      if (key != null) {
        OutboxOutcomes.tried(
            settings, key, Map.of(address, Undelivered.out(pending, failed, tries.out())));
      }
      waitFor(failed, attempts, duplicates);
      return false;
    }
    settings.delivered.record(address, previous.getIncarnation(), loaded.outboxVersion());
    if (key != null) {
      OutboxOutcomes.settle(settings, key, List.of(address));
    }
    return true;
  }

  /**
   * The address's messages wait for its previous outbox. A repeat on its last attempt is done (it
   * was applied; the sweep delivers that outbox); any other message fails, as nothing of it was
   * applied here. Its dead letter cannot say it was applied nowhere: nothing fences the state read
   * against another copy of the batch, or a slower earlier receive, that delivers the outbox and
   * applies it meanwhile.
   */
  private void waitFor(Undelivered failed, int tries, Set<InboundInvocation> duplicates) {
    String error =
        "The effects of an earlier commit of "
            + address
            + " could not be delivered yet ("
            + failed.reason()
            + "; tried "
            + tries
            + " of "
            + settings.maxAttempts
            + " times)";
    settleLive(
        () -> {
          List<Delivery> waiting = new ArrayList<>();
          for (Delivery d : deliveries) {
            if (d.lastAttempt(settings.maxAttempts) && duplicates.containsAll(d.invocations)) {
              d.settle(DeliveryOutcome.DUPLICATE, error + "; applied before, it is done");
            } else {
              waiting.add(d);
            }
          }
          FailedDeliveries.settle(settings, waiting, error, false, "unknown");
        });
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
      boolean noRoom = false;
      boolean failed = false;
      for (InboundInvocation inbound : d.invocations) {
        outcome = DeliveryOutcome.combine(outcome, plan.outcomes.get(inbound));
        if (error == null) {
          error = plan.errors.get(inbound);
        }
        if (plan.outcomes.get(inbound) == DeliveryOutcome.FAILED) {
          boolean later = plan.failures.get(inbound) instanceof NoRoomInCommit;
          noRoom |= later;
          failed |= !later;
        }
      }
      d.settle(outcome, error);
      d.noRoom = noRoom && !failed;
    }
    Observations.settled(settings, plan);
    answerCalls(plan);
    answerAsTheirFirst();
  }

  /**
   * A direct delivery is a repeat only of one earlier in this batch with its key (the marks name
   * keys, not outcomes), and that one was not applied: nothing was applied under the key, so its
   * caller gets that one's answer, not "applied before".
   */
  private void answerAsTheirFirst() {
    Map<String, Delivery> firsts = new HashMap<>();
    for (Delivery d : deliveries) {
      if (d.idempotencyKey == null || d.fromQueue) {
        continue;
      }
      Delivery first = firsts.putIfAbsent(d.idempotencyKey, d);
      if (first != null
          && d.outcome == DeliveryOutcome.DUPLICATE
          && (first.outcome == DeliveryOutcome.FAILED
              || first.outcome == DeliveryOutcome.DEAD_LETTERED)) {
        d.settle(first.outcome, first.error);
        // Left for a later round with its first, it runs there too and is answered as a repeat.
        d.noRoom = first.noRoom;
        d.functionFailed = first.functionFailed;
        d.reply = null;
      }
    }
  }

  /** Whether a call among the deliveries has a deadline that has passed. */
  private boolean callDeadlinePassed() {
    long now = settings.clock.millis();
    for (Delivery d : deliveries) {
      if (d.call && d.callDeadlineMillis > 0 && now >= d.callDeadlineMillis) {
        return true;
      }
    }
    return false;
  }

  /**
   * The calls' answers: an applied call's reply as this run made it (and as its commit keeps it), a
   * repeat's as its one application kept it (or as a call earlier in this batch made it).
   */
  private void answerCalls(RunResult plan) {
    Map<String, CallReply> answered = new HashMap<>();
    for (Delivery d : deliveries) {
      if (!d.call || d.invocations.isEmpty()) {
        continue;
      }
      InboundInvocation inbound = d.invocations.get(0);
      if (d.outcome == DeliveryOutcome.APPLIED && plan != null) {
        d.reply = CallReplies.of(plan.replies.get(inbound), settings.clock.millis() / 1000);
        if (d.idempotencyKey != null) {
          answered.putIfAbsent(d.idempotencyKey, d.reply);
        }
      } else if (d.outcome == DeliveryOutcome.DUPLICATE && d.idempotencyKey != null) {
        CallReply kept = readMarks == null ? null : readMarks.reply(d.idempotencyKey);
        d.reply = kept != null ? kept : answered.get(d.idempotencyKey);
      } else if (d.outcome == DeliveryOutcome.FAILED && plan != null) {
        d.functionFailed =
            plan.failures.get(inbound) instanceof dev.statekit.function.FunctionInvocationException;
      }
    }
  }

  private static RuntimeData runtimeData(AddressState state) {
    return Outboxes.data(state);
  }
}
