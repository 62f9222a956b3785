package dev.statekit.runtime.internal;

import dev.statekit.function.EgressMessage;
import dev.statekit.invocation.InvocationEffects;
import dev.statekit.invocation.StateMutation;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** What one run of an address's invocations produced; the runtime may run them again after it. */
final class RunResult {
  final EffectCheck check;
  final long incarnation;
  final Map<InboundInvocation, DeliveryOutcome> outcomes = new IdentityHashMap<>();
  final Map<InboundInvocation, String> errors = new IdentityHashMap<>();
  final Map<InboundInvocation, RuntimeException> failures = new IdentityHashMap<>();
  final List<InboundInvocation> appliedInbounds = new ArrayList<>();
  final List<InvocationEffects> appliedEffects = new ArrayList<>();

  /**
   * The invocations that take room in the commit, in order: those applied, and those dead-lettered
   * in it (their function failed on their last attempt, their effects were refused, or they came
   * past their last attempt), whose dead letter carries the message.
   */
  final List<InboundInvocation> ran = new ArrayList<>();

  /** The applied calls' replies ({@code null}: the function sent none). */
  final Map<InboundInvocation, EgressMessage> replies = new IdentityHashMap<>();

  List<StateMutation> mutations = List.of();

  /** The invocations run, for the observer; null when none is registered. */
  List<Observations.Draft> observed;

  /** An invocation whose effects the runtime refuses; run again without it. */
  InboundInvocation rejected;

  RuntimeException rejection;

  /** The refusal is only "too much for one commit": run again with fewer invocations. */
  boolean tooMuchForOneCommit;

  RunResult(EffectCheck check, long incarnation) {
    this.check = check;
    this.incarnation = incarnation;
  }

  void settle(InboundInvocation inbound, DeliveryOutcome outcome, RuntimeException error) {
    outcomes.put(inbound, outcome);
    if (error != null) {
      failures.put(inbound, error);
      errors.put(inbound, error.getMessage() == null ? error.toString() : error.getMessage());
    }
  }

  /** The invocation ran and failed on its last attempt: dead-lettered with its error. */
  void deadLetteredOnRun(InboundInvocation inbound, RuntimeException error) {
    settle(inbound, DeliveryOutcome.DEAD_LETTERED, error);
    ran.add(inbound);
  }

  void applied(InboundInvocation inbound, InvocationEffects effects) {
    outcomes.put(inbound, DeliveryOutcome.APPLIED);
    appliedInbounds.add(inbound);
    ran.add(inbound);
    appliedEffects.add(effects);
    if (inbound.delivery.call) {
      replies.put(inbound, effects.reply());
    }
  }

  /** Once committed: how late each delayed message took effect, from its due time. */
  void committedAt(long nowMillis) {
    for (InboundInvocation inbound : appliedInbounds) {
      if (inbound.timer != null) {
        dev.statekit.telemetry.Metrics.add(
            dev.statekit.telemetry.Metric.TIMER_LATENESS,
            Math.max(0, nowMillis - inbound.timer.dueAtMillis()));
      }
    }
  }

  /** Whether the run changed anything that must be committed. */
  boolean needsCommit() {
    return outcomes.values().stream()
        .anyMatch(o -> o == DeliveryOutcome.APPLIED || o == DeliveryOutcome.DEAD_LETTERED);
  }
}
