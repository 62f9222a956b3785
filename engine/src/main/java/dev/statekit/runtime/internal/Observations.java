package dev.statekit.runtime.internal;

import dev.statekit.function.DelayedMessage;
import dev.statekit.function.spi.Payloads;
import dev.statekit.invocation.DelayedAction;
import dev.statekit.invocation.InvocationEffects;
import dev.statekit.invocation.TypedValue;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.InvocationObserver;
import dev.statekit.runtime.ObservedInvocation;
import dev.statekit.telemetry.Log;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run shows the {@link InvocationObserver}: each invocation's state before and after, taken
 * while it runs, handed over once the address's outcome is settled (a run redone after a conflict
 * or a refusal shows only its last try).
 */
final class Observations {
  private static final Log LOG = Log.named(FunctionRuntime.FAILURES_LOGGER);

  private Observations() {}

  /** One invocation as it ran; its outcome comes with the settlement. */
  record Draft(
      InboundInvocation inbound,
      Map<String, TypedValue> before,
      Map<String, TypedValue> after,
      InvocationEffects effects) {}

  static boolean on(RuntimeSettings settings) {
    return settings.observer != InvocationObserver.NONE;
  }

  /** Hands the settled invocations of {@code plan} to the observer. */
  static void settled(RuntimeSettings settings, RunResult plan) {
    if (plan.observed == null) {
      return;
    }
    Instant now = Instant.ofEpochMilli(settings.clock.millis());
    for (Draft draft : plan.observed) {
      DeliveryOutcome outcome = plan.outcomes.get(draft.inbound());
      ObservedInvocation.Outcome seen =
          outcome == DeliveryOutcome.APPLIED
              ? ObservedInvocation.Outcome.APPLIED
              : outcome == DeliveryOutcome.DEAD_LETTERED
                  ? ObservedInvocation.Outcome.DEAD_LETTERED
                  : outcome == DeliveryOutcome.FAILED ? ObservedInvocation.Outcome.FAILED : null;
      if (seen == null) {
        continue;
      }
      try {
        settings.observer.observed(record(draft, seen, plan.errors.get(draft.inbound()), now));
      } catch (RuntimeException e) {
        LOG.warn("The invocation observer failed; ignored: " + e, e);
      }
    }
  }

  private static ObservedInvocation record(
      Draft draft, ObservedInvocation.Outcome outcome, String error, Instant now) {
    InboundInvocation inbound = draft.inbound();
    InvocationEffects effects = draft.effects();
    List<DelayedMessage> delayed = new ArrayList<>();
    List<String> cancelled = new ArrayList<>();
    if (effects != null) {
      for (DelayedAction action : effects.delayed()) {
        if (action.isCancellation()) {
          cancelled.add(action.cancelledToken());
        } else {
          delayed.add(action.message());
        }
      }
    }
    return new ObservedInvocation(
        now,
        inbound.target(),
        inbound.timer != null
            ? ObservedInvocation.Source.DELAYED
            : inbound.caller != null
                ? ObservedInvocation.Source.FUNCTION
                : ObservedInvocation.Source.INGRESS,
        inbound.caller,
        Payloads.access()
            .message(
                inbound.target(), inbound.argument.typeName(), inbound.argument.value().clone()),
        values(draft.before()),
        values(draft.after()),
        effects == null ? List.of() : effects.messages(),
        delayed,
        cancelled,
        effects == null ? List.of() : effects.egress(),
        outcome,
        error,
        inbound.delivery.attempts,
        inbound.traceId);
  }

  private static Map<String, ObservedInvocation.Value> values(Map<String, TypedValue> values) {
    Map<String, ObservedInvocation.Value> copied = new LinkedHashMap<>();
    values.forEach(
        (name, value) ->
            copied.put(name, new ObservedInvocation.Value(value.typeName(), value.value())));
    return copied;
  }
}
