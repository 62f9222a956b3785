package dev.statekit.stream.lambda.internal;

import dev.statekit.StateKitException;
import dev.statekit.egress.EgressException;
import dev.statekit.stream.lambda.Attempt;
import dev.statekit.stream.lambda.GivenUp;
import dev.statekit.stream.lambda.SplitState;
import dev.statekit.stream.lambda.TickResult;
import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.state.StateStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The scheduled tick: moves on the watermark of splits that got no batch for the idle timeout (as a
 * candidate, usable for firing one batch timeout later), then fires every window due at the
 * pipeline's watermark, delivers the results, and records how far it fired. Also the only firing of
 * pipelines fed by unordered splits (SQS), whose batches don't fire.
 */
final class TickFlow {
  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.of(TickFlow.class);

  /** Rounds of firing per tick when more is due than one query returns. */
  private static final int MAX_ROUNDS = 20;

  private final BatchEngine engine;
  private final long now;
  private final long timeout;

  TickFlow(BatchEngine engine) {
    this.engine = engine;
    this.now = engine.settings.clock().millis();
    this.timeout = engine.settings.batchTimeoutMs();
  }

  TickResult run() throws Exception {
    List<SplitState> splits = new ArrayList<>(engine.store().readSplits(engine.name));
    List<String> idle = new ArrayList<>();
    List<Runnable> writes = new ArrayList<>();
    long idleTimeout = engine.shape.idleTimeout();
    long floor = Long.MAX_VALUE;
    for (SplitState split : splits) {
      if (!split.isTick() && split.watermark() != Long.MIN_VALUE) {
        floor = Math.min(floor, Progress.lateness(split));
      }
    }
    Set<String> retrying = noticeAbandoned(splits);
    for (int i = 0; i < splits.size(); i++) {
      SplitState split = splits.get(i);
      // A shard whose batch Lambda is still retrying is not idle: its records are on their way.
      boolean idleNow =
          idleTimeout > 0
              && now - split.activeAt() >= idleTimeout
              && !retrying.contains(split.split());
      long proposal;
      if (split.isTick()) {
        continue;
      } else if (idleNow && split.watermark() != Long.MIN_VALUE) {
        proposal = split.watermark() + (now - split.activeAt()); // event time follows the clock
      } else if (idleNow && floor != Long.MAX_VALUE) {
        proposal = floor; // never had a batch: it follows the other splits
      } else if (!idleNow && split.position() == null && split.watermark() != Long.MIN_VALUE) {
        proposal = split.watermark(); // a queue: its watermark becomes firable in time
      } else {
        continue;
      }
      if (idleNow) {
        idle.add(split.split());
      }
      SplitState next = Progress.propose(split, proposal, now, timeout);
      if (next.fireWatermark() != split.fireWatermark() || next.candidate() != split.candidate()) {
        SplitState written = next.withVersion(split.version() + 1);
        splits.set(i, written);
        // A batch that came meanwhile wins: the next tick sees it.
        writes.add(() -> engine.store().writeSplit(engine.name, written));
      }
    }
    engine.together(writes);
    // Before the firing, whose own deliveries may fail: a sink that takes nothing fails both.
    int deferred = 0;
    StateKitException deferredFailure = null;
    try {
      deferred = deliverDeferred(splits);
    } catch (StateKitException e) {
      // The windows due fire all the same: one queue's trouble must not hold the pipeline's back.
      deferredFailure = e;
    }

    Progress progress = new Progress(splits, now, timeout);
    long watermark = progress.pipelineWatermark(null, Long.MIN_VALUE);
    int fired = 0;
    long firedThrough = progress.firedThrough();
    for (int round = 0;
        round < MAX_ROUNDS && engine.shape.windowed() && watermark > firedThrough;
        round++) {
      List<TimerItem> due =
          engine.store().timersDueBy(engine.name, watermark, engine.settings.timerPage());
      IndexFire index =
          new IndexFire(
              due,
              engine.settings.timerPage(),
              time -> engine.store().timersDueBy(engine.name, time, Integer.MAX_VALUE),
              firedThrough,
              watermark,
              engine.codec,
              engine.shape,
              Set.of());
      fired += fire(progress, index, firedThrough);
      firedThrough = index.through;
    }
    if (deferredFailure != null) {
      throw deferredFailure;
    }
    return new TickResult(idle, fired, watermark, deferred);
  }

  /**
   * Delivers the outputs batches deferred, split by split, for at most half a batch timeout.
   *
   * @return the messages delivered
   * @throws StateKitException if a sink still does not take them, or the store failed to read or
   *     record them, once every split was tried: the tick's failure shows the outage
   */
  private int deliverDeferred(List<SplitState> splits) {
    long stopAt = engine.settings.clock().millis() + timeout / 2;
    BooleanSupplier more = () -> engine.settings.clock().millis() < stopAt;
    int delivered = 0;
    StateKitException failure = null;
    for (SplitState split : splits) {
      if (split.isTick() || split.position() != null) {
        continue; // only unordered splits defer, and they record no position
      }
      DeferredDeliveries deferrals = new DeferredDeliveries(engine, split.split(), now);
      try {
        delivered += deferrals.drain(deferrals.firstPage(), more).delivered();
      } catch (StateStoreException | EgressException | MissingOutputException e) {
        // A store failure, a sink down or refusing a record, an output this deployment lacks: the
        // split's entries wait for the next tick, and the tick goes on to the others and the
        // windows. MissingOutputException is no StateKitException: escaping, it held all back.
        LOG.warn(
            "Pipeline "
                + engine.name
                + ": the deferred outputs of "
                + split.split()
                + " wait for the next tick, and the split's later ones behind them: "
                + e.getMessage()
                + (e instanceof EgressException egress && egress.refusedRecordId().isPresent()
                    ? " (a record the sink refuses for what it holds: give the pipeline a place"
                        + " for such records, BatchPipeline.builder(...).refusedOutputsTo(sink))"
                    : ""));
        if (failure == null) {
          failure =
              e instanceof StateKitException known
                  ? known
                  : new dev.statekit.stream.PipelineFailedException(e.getMessage(), e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return delivered;
  }

  /**
   * A shard whose last batch Lambda gave up on has no next batch to notice it: an attempt beyond
   * its checkpoint that nobody retried for two batch timeouts and five minutes (Lambda retries
   * within a minute or two) is recorded as given up here, and holds the windows like any other.
   *
   * @return the splits with an attempt beyond their checkpoint that may still be retried
   */
  private Set<String> noticeAbandoned(List<SplitState> splits) {
    long quiet = 2 * timeout + 300_000;
    Set<String> retrying = new java.util.HashSet<>();
    Map<String, List<Attempt>> attempts = new java.util.concurrent.ConcurrentHashMap<>();
    List<Runnable> reads = new ArrayList<>();
    for (SplitState split : splits) {
      if (!split.isTick() && split.version() > 0) {
        reads.add(
            () ->
                attempts.put(
                    split.split(),
                    engine
                        .store()
                        .latestAttempts(engine.name, split.split(), BatchFlow.RECENT_ATTEMPTS)));
      }
    }
    engine.together(reads);
    for (int i = 0; i < splits.size(); i++) {
      SplitState split = splits.get(i);
      List<Attempt> read = attempts.getOrDefault(split.split(), List.of());
      if (ShardFence.retrying(split, read, now, quiet)) {
        retrying.add(split.split());
      }
      GivenUp gap = ShardFence.abandoned(split, read, now, quiet);
      if (gap == null || split.version() == 0) {
        continue;
      }
      ShardFence.Noticed noticed =
          ShardFence.withAttempts(engine.store(), engine.name, split, gap, read);
      gap = noticed.gap();
      List<GivenUp> givenUp = new ArrayList<>(split.givenUp());
      givenUp.add(gap);
      SplitState next = Progress.lateAgainst(split.nextWithGivenUp(givenUp), noticed.reached());
      if (engine.store().writeSplit(engine.name, next)) {
        LOG.warn(
            "Pipeline "
                + engine.name
                + ": no batch of "
                + split.split()
                + " came after the one Lambda gave up on, ending at "
                + gap.before()
                + " (exclusive); replay it with BatchPipeline.replay");
        splits.set(i, next);
      }
    }
    return retrying;
  }

  /** Fires what the index named, delivers it, then drops the covered items and records it. */
  private int fire(Progress progress, IndexFire index, long firedThrough) throws Exception {
    int fired = 0;
    if (!index.windows.isEmpty()) {
      BatchContext context =
          new BatchContext(
              engine.name,
              engine.shape,
              new Capture(engine.shape.routes()),
              engine.settings,
              SplitState.TICK,
              false,
              false,
              null,
              Set.of(),
              Long.MIN_VALUE,
              firedThrough,
              index.upTo,
              progress.positions(),
              progress.givenUp(),
              null,
              (split, id) -> false,
              now,
              List.of());
      var works =
          new KeyedPass(context, engine.decoded())
              .run(List.of(), engine.readKeys(index.windows.keySet(), true), index.windows)
              .works();
      Deliveries deliveries = engine.deliveries();
      for (KeyWork work : works.values()) {
        fired += work.fired;
        work.deliveries.forEach(routed -> deliveries.add(routed.route(), routed.record()));
      }
      engine.together(deliveries.calls());
    }
    if (!index.rests.isEmpty()) {
      engine.store().putTimers(engine.name, index.rests);
    }
    List<Runnable> record = new ArrayList<>();
    record.add(() -> engine.store().deleteTimers(engine.name, index.covered));
    record.add(() -> recordFired(index.through));
    engine.together(record);
    return fired;
  }

  private void recordFired(long through) {
    while (true) {
      SplitState tick =
          new Progress(engine.store().readSplits(engine.name), now, timeout).split(SplitState.TICK);
      if (tick.firedThrough() >= through) {
        return;
      }
      SplitState next =
          new SplitState(
              SplitState.TICK,
              tick.version() + 1,
              null,
              null,
              List.of(),
              Long.MIN_VALUE,
              Long.MIN_VALUE,
              Long.MIN_VALUE,
              0,
              now,
              through,
              List.of());
      if (engine.store().writeSplit(engine.name, next)) {
        return;
      }
    }
  }
}
