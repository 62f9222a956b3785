package dev.statekit.runtime.internal;

import dev.statekit.function.FunctionInvocationException;
import dev.statekit.function.IncompatibleStateException;
import dev.statekit.function.UnknownFunctionException;
import dev.statekit.function.ValueSpec;
import dev.statekit.invocation.AddressRun;
import dev.statekit.invocation.InvocationEffects;
import dev.statekit.invocation.TypedValue;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.StoredValue;
import dev.statekit.telemetry.Telemetry;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs an address's invocations once through the engine, in order, from its loaded state: repeats
 * are skipped, none starts once the batch's time runs short (they come again), a failing invocation
 * stops the address (its later messages come again) unless it is on its last attempt (then it is
 * dead-lettered and the address carries on), and invocations the runtime refused in an earlier run,
 * or that come back after their last attempt, are dead-lettered without running.
 */
final class InvocationRunner {
  private final RuntimeSettings settings;
  private final AddressState loaded;
  private final List<InboundInvocation> invocations;
  private final Set<InboundInvocation> duplicates;
  private final long incarnation;
  private final long now;
  private final BatchDeadline deadline;

  /** Invocations started before the batch's start limit: the plan's later runs start them too. */
  private final Set<InboundInvocation> started = Collections.newSetFromMap(new IdentityHashMap<>());

  /** Invocations the start limit kept from starting: the plan's later runs keep them out too. */
  private final Set<InboundInvocation> late = Collections.newSetFromMap(new IdentityHashMap<>());

  /**
   * Runs of {@code invocations} from {@code loaded}, skipping {@code duplicates}.
   *
   * @param incarnation the address's incarnation (timer ids and outbox ids carry it)
   * @param deadline after its start limit no invocation starts: the rest come again
   */
  InvocationRunner(
      RuntimeSettings settings,
      AddressState loaded,
      List<InboundInvocation> invocations,
      Set<InboundInvocation> duplicates,
      long incarnation,
      long now,
      BatchDeadline deadline) {
    this.settings = settings;
    this.loaded = loaded;
    this.invocations = invocations;
    this.duplicates = duplicates;
    this.incarnation = incarnation;
    this.now = now;
    this.deadline = deadline;
  }

  /**
   * One run.
   *
   * @param skip invocations to dead-letter without running, with why
   * @param limit run at most this many invocations that take room in the commit ({@link
   *     RunResult#ran}); the rest are left for a later commit ({@link NoRoomInCommit})
   */
  RunResult run(Map<InboundInvocation, RuntimeException> skip, int limit) {
    EffectCheck check =
        new EffectCheck(
            settings,
            loaded.address(),
            incarnation,
            loaded.version() + 1,
            now,
            loaded.pendingTokens());
    RunResult plan = new RunResult(check, incarnation);
    AddressRun batch;
    try {
      batch = settings.engine.open(loaded.address());
      offerValues(batch);
    } catch (UnknownFunctionException | IncompatibleStateException e) {
      for (InboundInvocation inbound : invocations) {
        if (duplicates.contains(inbound)) {
          plan.settle(inbound, DeliveryOutcome.DUPLICATE, e);
        } else {
          deadLetter(check, plan, inbound, e);
        }
      }
      return plan;
    } catch (FunctionInvocationException e) {
      // The function could not be made (its supplier failed): this counts as its failure, and
      // the messages on their last attempt are dead-lettered with it.
      for (InboundInvocation inbound : invocations) {
        if (duplicates.contains(inbound)) {
          plan.settle(inbound, DeliveryOutcome.DUPLICATE, e);
        } else if (lastAttempt(inbound)) {
          deadLetter(check, plan, inbound, e);
        } else {
          plan.settle(inbound, DeliveryOutcome.FAILED, e);
        }
      }
      return plan;
    }
    RuntimeException stop = null;
    for (InboundInvocation inbound : invocations) {
      RuntimeException refusal =
          skip.containsKey(inbound) ? skip.get(inbound) : unstarted(inbound, check);
      if (duplicates.contains(inbound)) {
        plan.settle(inbound, DeliveryOutcome.DUPLICATE, null);
      } else if (stop != null) {
        plan.settle(inbound, DeliveryOutcome.FAILED, stop);
      } else if ((refusal != null || pastLastAttempt(inbound))
          && (plan.ran.size() >= limit
              || (!plan.ran.isEmpty() && check.firingOverflows(inbound)))) {
        // Its dead letter carries the message, and takes room in the commit as a run does; a
        // fired timer's removal, too, among the commit's timer changes.
        stop = new NoRoomInCommit(loaded.address().toString());
        plan.settle(inbound, DeliveryOutcome.FAILED, stop);
      } else if (refusal != null) {
        deadLetter(check, plan, inbound, refusal);
        plan.ran.add(inbound);
      } else if (pastLastAttempt(inbound)) {
        // Its last attempt may have sent its dead letter (saying it was not applied) and lost the
        // answer: applying it now would make that dead letter lie. It is dead-lettered again
        // (under the same deduplication id).
        deadLetter(
            check,
            plan,
            inbound,
            new IllegalStateException(
                "Received "
                    + inbound.delivery.attempts
                    + " times, past its last attempt ("
                    + settings.maxAttempts
                    + "), which failed and may have dead-lettered it; so it is not applied now"));
        plan.ran.add(inbound);
      } else if (inbound.timer != null && check.wasCancelled(inbound.timer)) {
        // Cancelled earlier in this run: the cancellation wins, and its delete of the timer is
        // the commit's only change to it (DynamoDB refuses two on one item).
        plan.settle(inbound, DeliveryOutcome.DUPLICATE, null);
      } else if (plan.ran.size() >= limit) {
        stop = new NoRoomInCommit(loaded.address().toString());
        plan.settle(inbound, DeliveryOutcome.FAILED, stop);
      } else if (tooLate(inbound)) {
        // What ran before it is committed in the time left; it comes again, after them.
        stop =
            new IllegalStateException(
                "Not run: the Lambda invocation's time ran short before it; it comes again");
        plan.settle(inbound, DeliveryOutcome.FAILED, stop);
      } else {
        started.add(inbound);
        stop = invoke(batch, check, plan, inbound);
        if (plan.rejected != null) {
          return plan;
        }
      }
    }
    plan.mutations = batch.mutations();
    return plan;
  }

  /**
   * Why a message on its last attempt is dead-lettered without running once the batch's time runs
   * short, or null: back on the queue past its last attempt, it would be dead-lettered with no
   * error of its own (or by the queue's redrive, with none at all).
   */
  private RuntimeException unstarted(InboundInvocation inbound, EffectCheck check) {
    if (!lastAttempt(inbound)
        || !tooLate(inbound)
        || pastLastAttempt(inbound)
        || (inbound.timer != null && check.wasCancelled(inbound.timer))) {
      return null;
    }
    return new IllegalStateException(
        "Not run on its last attempt: the Lambda invocation's time ran short before it");
  }

  /**
   * Whether the batch's time ran short before {@code inbound} started: decided once per invocation,
   * so that every run of one plan (a planner runs an address again to find what fits) agrees.
   */
  private boolean tooLate(InboundInvocation inbound) {
    if (started.contains(inbound)) {
      return false;
    }
    if (late.contains(inbound) || !deadline.mayStart()) {
      late.add(inbound);
      return true;
    }
    return false;
  }

  /**
   * Dead-letters {@code inbound} without running it. A delayed message's timer goes with the commit
   * all the same, so it is counted in the commit's timer changes, and its token, if this address
   * owns it, is free again: left pending, every later message setting it would be refused.
   */
  private static void deadLetter(
      EffectCheck check, RunResult plan, InboundInvocation inbound, RuntimeException why) {
    if (inbound.timer != null) {
      check.firing(inbound);
    }
    plan.settle(inbound, DeliveryOutcome.DEAD_LETTERED, why);
  }

  /**
   * Runs one invocation in its log context (the address, the message's trace id); returns the error
   * that stops the address, if it does.
   */
  private RuntimeException invoke(
      AddressRun batch, EffectCheck check, RunResult plan, InboundInvocation inbound) {
    try (Telemetry.Restore address =
            Telemetry.with(Telemetry.ADDRESS, loaded.address().toString());
        Telemetry.Restore trace = Telemetry.with(Telemetry.TRACE_ID, inbound.traceId)) {
      return invokeTraced(batch, check, plan, inbound);
    }
  }

  private RuntimeException invokeTraced(
      AddressRun batch, EffectCheck check, RunResult plan, InboundInvocation inbound) {
    if (inbound.timer != null) {
      check.firing(inbound);
    }
    InvocationEffects effects;
    Map<String, TypedValue> before = Observations.on(settings) ? batch.currentValues() : null;
    try {
      effects = batch.invoke(inbound.caller, inbound.argument);
    } catch (FunctionInvocationException e) {
      if (before != null) {
        observe(plan, new Observations.Draft(inbound, before, before, null));
      }
      if (lastAttempt(inbound)) {
        plan.deadLetteredOnRun(inbound, e);
        return null;
      }
      if (inbound.timer != null) {
        check.notFired(inbound);
      }
      plan.settle(inbound, DeliveryOutcome.FAILED, e);
      return new IllegalStateException(
          "Not run: an earlier message to "
              + inbound.target()
              + " failed; it comes again after it");
    }
    // The timers this invocation sets carry its trace id on.
    check.traceId = inbound.traceId;
    EffectCheck.Verdict verdict = check.check(effects);
    if (verdict == null && inbound.delivery.call) {
      verdict = replyTooLarge(inbound, effects);
    }
    if (verdict != null) {
      plan.rejected = inbound;
      plan.rejection = verdict.error();
      plan.tooMuchForOneCommit = verdict.tooMuchForOneCommit();
      return null;
    }
    plan.applied(inbound, effects);
    if (before != null) {
      observe(plan, new Observations.Draft(inbound, before, batch.currentValues(), effects));
    }
    return null;
  }

  /** A reply is kept in the address's item with the call's key: it must fit there. */
  private static EffectCheck.Verdict replyTooLarge(
      InboundInvocation inbound, InvocationEffects effects) {
    if (effects.reply() == null
        || effects.reply().rawValue().length <= RuntimeSettings.MAX_REPLY_BYTES) {
      return null;
    }
    return new EffectCheck.Verdict(
        new IllegalStateException(
            "The reply of "
                + inbound.target()
                + " has "
                + effects.reply().rawValue().length
                + " bytes, more than a call's reply may have ("
                + RuntimeSettings.MAX_REPLY_BYTES
                + "); nothing was applied. Reply with less (an id to read the rest by) or send it"
                + " to an egress"),
        false);
  }

  private static void observe(RunResult plan, Observations.Draft draft) {
    if (plan.observed == null) {
      plan.observed = new java.util.ArrayList<>();
    }
    plan.observed.add(draft);
  }

  private boolean lastAttempt(InboundInvocation inbound) {
    return inbound.delivery.lastAttempt(settings.maxAttempts);
  }

  private boolean pastLastAttempt(InboundInvocation inbound) {
    return inbound.delivery.fromQueue && inbound.delivery.attempts > settings.maxAttempts;
  }

  private void offerValues(AddressRun batch) {
    for (ValueSpec<?> spec :
        settings.functions.get(loaded.address().type()).orElseThrow().valueSpecs()) {
      StoredValue stored = loaded.values().get(spec.name());
      // Expired values are absent even while DynamoDB's TTL has not deleted them yet.
      batch.offer(
          spec.name(),
          stored == null || stored.isExpiredAt(now)
              ? null
              : new TypedValue(stored.typeName(), stored.bytes()));
    }
  }
}
