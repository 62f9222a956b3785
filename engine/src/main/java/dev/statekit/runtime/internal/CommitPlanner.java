package dev.statekit.runtime.internal;

import dev.statekit.runtime.internal.data.RuntimeData;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.OutboxKey;
import dev.statekit.runtime.store.SpilledMark;
import dev.statekit.runtime.store.StateTooLargeException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs an address's invocations until the runtime accepts every effect and the new state fits: an
 * invocation whose effects are refused, or that takes the state past the limit as the commit's
 * first, is dead-lettered and the rest run again without it; those past what one commit holds are
 * left for a later commit of the batch ({@link NoRoomInCommit}).
 */
final class CommitPlanner {
  private final RuntimeSettings settings;
  private final AddressState loaded;
  private final RuntimeData data;
  private final Map<String, SpilledMark> spilled;
  private final List<Delivery> deliveries;
  private final InvocationRunner runs;
  private final long now;
  private final OutboxKey outboxKey;

  CommitPlanner(
      RuntimeSettings settings,
      AddressState loaded,
      RuntimeData data,
      Map<String, SpilledMark> spilled,
      List<Delivery> deliveries,
      InvocationRunner runs,
      long now,
      OutboxKey outboxKey) {
    this.settings = settings;
    this.loaded = loaded;
    this.data = data;
    this.spilled = spilled;
    this.deliveries = deliveries;
    this.runs = runs;
    this.now = now;
    this.outboxKey = outboxKey;
  }

  /** The run to commit, with its next state ({@code null} when it changes nothing). */
  CommitPlan plan() {
    Map<InboundInvocation, RuntimeException> skip = new IdentityHashMap<>();
    int limit = Integer.MAX_VALUE;
    while (true) {
      RunResult plan = runs.run(skip, limit);
      if (plan.rejected != null) {
        if (plan.tooMuchForOneCommit && !plan.ran.isEmpty()) {
          limit = plan.ran.size();
        } else {
          skip.put(plan.rejected, plan.rejection);
        }
        continue;
      }
      if (!plan.needsCommit()) {
        return new CommitPlan(plan, null);
      }
      NextState next = next(plan);
      long size = settings.store.sizeOf(next.state());
      if (size <= settings.store.maxStateBytes()) {
        return new CommitPlan(plan, next);
      }
      int fitting = fittingCount(skip, plan.ran.size());
      if (fitting < 0) {
        // Too large even without this batch: the commit refuses it with the reason.
        return new CommitPlan(plan, next);
      }
      if (fitting > 0) {
        // What the invocations before it add (their outbox, the replies kept in the item) may take
        // the room, not its own state: it and the rest run in a later commit of the batch, after
        // these have left the item. Only one that does not fit as a commit's first is too large.
        limit = fitting;
        continue;
      }
      InboundInvocation culprit = runs.run(skip, 1).ran.get(0);
      if (skip.containsKey(culprit)) {
        // A dead letter that does not fit even as the commit's first: the commit refuses it with
        // the reason, as when the state is too large without this batch.
        return new CommitPlan(plan, next);
      }
      skip.put(
          culprit,
          new StateTooLargeException(
              loaded.address().toString(), size, settings.store.maxStateBytes()));
    }
  }

  /**
   * How many of the run's invocations that ran fit in one commit, found by bisection: the one after
   * them first takes the state past the limit; -1 if the state is too large without any.
   */
  private int fittingCount(Map<InboundInvocation, RuntimeException> skip, int ran) {
    int fitting = 0;
    int tooLarge = ran;
    if (!fits(runs.run(skip, 0))) {
      return -1;
    }
    while (tooLarge - fitting > 1) {
      int middle = (fitting + tooLarge) >>> 1;
      if (fits(runs.run(skip, middle))) {
        fitting = middle;
      } else {
        tooLarge = middle;
      }
    }
    return tooLarge - 1;
  }

  private NextState next(RunResult plan) {
    return NextState.of(settings, loaded, data, spilled, plan, deliveries, now, outboxKey);
  }

  private boolean fits(RunResult plan) {
    if (!plan.needsCommit()) {
      return true;
    }
    NextState next = next(plan);
    return settings.store.sizeOf(next.state()) <= settings.store.maxStateBytes();
  }
}
