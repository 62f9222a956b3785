package dev.statekit.stream.internal.batch;

import dev.statekit.StateKitException.Reason;
import dev.statekit.stream.SourcePosition;
import dev.statekit.stream.internal.BatchWindowOperator.Opened;
import dev.statekit.stream.internal.batch.SourceOutcome.Routed;
import dev.statekit.stream.lambda.BatchFaultHook.Step;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.lambda.SplitState;
import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.state.StateStoreException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * One batch, start to end: the records through the stateless operators (no I/O), then
 *
 * <ol>
 *   <li>read the splits and the batch's keys (one round trip);
 *   <li>apply the records per key in memory, skipping what each key applied before, and fire the
 *       windows due at the pipeline's watermark from the keys in memory; then write every key
 *       touched (one conditional write each), the windows it opened to the timer index, and ask the
 *       index for due windows of other keys (one round trip);
 *   <li>read those keys and fire their windows (one round trip, only then);
 *   <li>write the split's checkpoint (position, watermark, the firing to confirm) while the outputs
 *       are delivered (one round trip).
 * </ol>
 *
 * A crash at any point leaves what a retry of the batch completes: keys skip what they applied,
 * outputs go out again with the same ids, the next batch of the split confirms the firing.
 */
final class BatchFlow {
  private static final int MAX_CONFLICT_ROUNDS = 10;

  private final BatchEngine engine;
  private final SourceBatch batch;
  private final Capture capture;
  private final String split;
  private final long now;

  BatchFlow(BatchEngine engine, SourceBatch batch) {
    this.engine = engine;
    this.batch = batch;
    this.capture = new Capture(engine.shape.routes());
    this.split = batch.split();
    this.now = engine.settings.clock().millis();
  }

  BatchResult run() throws Exception {
    SourcePass sources = new SourcePass(engine.shape, engine.name);
    List<SourceOutcome> outcomes = sources.run(batch, capture);
    boolean keyed = engine.shape.keyedOperator() != null;
    Set<String> keys = new HashSet<>();
    outcomes.forEach(o -> o.keyed.forEach(input -> keys.add(input.encoded())));

    List<SplitState> splits = new ArrayList<>();
    Map<String, KeyItem> items = new LinkedHashMap<>();
    List<Callable<Void>> reads = new ArrayList<>();
    reads.add(call(() -> splits.addAll(engine.store().readSplits(engine.name))));
    if (keyed && !keys.isEmpty()) {
      reads.add(call(() -> items.putAll(engine.readKeys(keys, false))));
    }
    engine.together(reads);
    engine.reached(Step.LOADED, split);

    Progress progress = new Progress(splits, now, engine.settings.batchTimeoutMs());
    SplitState state = progress.split(split);
    Batch applied = new Batch(outcomes, state.position());
    int repeats = sources.repeats + applied.covered;

    BatchContext context = null;
    KeyedPass.Result pass = null;
    while (true) {
      context = context(progress, state, applied);
      pass =
          keyed
              ? new KeyedPass(context).run(applied.inputs(), items, Map.of())
              : new KeyedPass.Result(Map.of(), -1, null);
      if (!pass.failed()) {
        break;
      }
      applied.fail(pass.failedSource(), pass.failure(), batch.ordered());
    }
    Map<String, KeyWork> works = new LinkedHashMap<>(pass.works());

    // Writes: the keys, their new windows, and the question which other windows are due.
    List<TimerItem> due = new ArrayList<>();
    List<Callable<Void>> writes = new ArrayList<>();
    Set<String> conflicts = new HashSet<>();
    writes.add(call(() -> conflicts.addAll(engine.writeKeys(works.values()))));
    List<TimerItem> timers = timers(works);
    if (!timers.isEmpty()) {
      writes.add(call(() -> engine.store().putTimers(engine.name, timers)));
    }
    BatchContext fired = context;
    if (context.fires()) {
      writes.add(
          call(
              () ->
                  due.addAll(
                      engine.store().timersDueBy(engine.name, fired.fireUpTo(), IndexFire.LIMIT))));
    }
    boolean successor = successor(state, applied);
    if (successor && !state.pendingTimers().isEmpty()) {
      writes.add(call(() -> engine.store().deleteTimers(engine.name, state.pendingTimers())));
    }
    Deliveries early = new Deliveries(engine.shape.routes());
    applied.outputs().forEach(routed -> early.add(routed.route(), routed.record()));
    writes.addAll(early.calls());
    engine.together(writes);
    resolveConflicts(context, applied, works, conflicts);
    engine.reached(Step.FLUSHED, split);

    // Windows the index says are due, of keys this batch did not touch.
    IndexFire index = null;
    if (context.fires()) {
      index =
          new IndexFire(
              due,
              context.firedThrough(),
              context.fireUpTo(),
              engine.codec,
              engine.shape,
              works.keySet());
      fireFromIndex(context, index, works);
    }

    SplitState next = checkpoint(state, applied, context, successor, index);
    Deliveries late = new Deliveries(engine.shape.routes());
    KeyedPass.all(works).forEach(routed -> late.add(routed.route(), routed.record()));
    List<Callable<Void>> last = new ArrayList<>();
    last.add(call(() -> writeCheckpoint(next)));
    last.add(
        call(
            () -> {
              engine.reached(Step.DELIVERY, split);
              engine.together(late.calls());
            }));
    engine.together(last);
    engine.reached(Step.DELIVERED, split);
    return result(applied, works, repeats, context);
  }

  private BatchContext context(Progress progress, SplitState state, Batch applied) {
    long firedThrough = progress.firedThrough();
    // Windows that fired are closed to every split; a split the pipeline did not know yet joins
    // behind the watermark the others may be firing at.
    long lateness = Math.max(Progress.lateness(state), firedThrough);
    if (state.version() == 0) {
      lateness = Math.max(lateness, progress.pipelineWatermark(null, Long.MIN_VALUE));
    }
    long watermark = Math.max(lateness, engine.shape.watermarkAt(applied.maxTimestamp()));
    if (successor(state, applied) && state.pendingThrough() != Long.MIN_VALUE) {
      firedThrough = Math.max(firedThrough, state.pendingThrough());
    }
    long fireUpTo = batch.ordered() ? progress.pipelineWatermark(split, watermark) : Long.MIN_VALUE;
    Set<String> offsets = new HashSet<>();
    batch.records().forEach(r -> offsets.add(r.position().offset()));
    return new BatchContext(
        engine.name,
        engine.shape,
        capture,
        engine.settings,
        split,
        batch.ordered(),
        applied.firstOffset(),
        offsets,
        lateness,
        firedThrough,
        fireUpTo,
        progress.positions(),
        now);
  }

  /** True if the batch starts after the split's position: its previous batch was answered. */
  private boolean successor(SplitState state, Batch applied) {
    return batch.ordered()
        && state.position() != null
        && applied.firstOffset() != null
        && SourcePosition.compareOffsets(applied.firstOffset(), state.position()) > 0;
  }

  private List<TimerItem> timers(Map<String, KeyWork> works) {
    if (engine.codec == null) {
      return List.of();
    }
    List<Opened> opened = new ArrayList<>();
    works.values().forEach(work -> opened.addAll(work.opened));
    return engine.codec.encode(opened, split);
  }

  /** Keys another invocation wrote since they were read: read again, run again, write again. */
  private void resolveConflicts(
      BatchContext context, Batch applied, Map<String, KeyWork> works, Set<String> conflicts)
      throws Exception {
    for (int round = 1; !conflicts.isEmpty(); round++) {
      if (round > MAX_CONFLICT_ROUNDS) {
        throw new StateStoreException(
            Reason.CONFLICT,
            "Keys "
                + conflicts
                + " of pipeline "
                + engine.name
                + " kept changing under batch"
                + " after batch of "
                + split
                + "; the batch is retried");
      }
      Map<String, KeyItem> items = engine.readKeys(conflicts, true);
      List<KeyedInput> inputs =
          applied.inputs().stream().filter(input -> conflicts.contains(input.encoded())).toList();
      KeyedPass.Result again = new KeyedPass(context).run(inputs, items, Map.of());
      if (again.failed()) {
        throw new IllegalStateException(
            "A record failed when its key was processed again after a concurrent write: "
                + again.failure());
      }
      works.putAll(again.works());
      Set<String> next = engine.writeKeys(again.works().values());
      List<TimerItem> timers = timers(again.works());
      if (!timers.isEmpty()) {
        engine.store().putTimers(engine.name, timers);
      }
      conflicts.clear();
      conflicts.addAll(next);
    }
  }

  private void fireFromIndex(BatchContext context, IndexFire index, Map<String, KeyWork> works)
      throws Exception {
    List<Callable<Void>> calls = new ArrayList<>();
    Map<String, KeyItem> items = new LinkedHashMap<>();
    if (!index.windows.isEmpty()) {
      calls.add(call(() -> items.putAll(engine.readKeys(index.windows.keySet(), true))));
    }
    if (!index.rests.isEmpty()) {
      calls.add(call(() -> engine.store().putTimers(engine.name, index.rests)));
    }
    engine.together(calls);
    if (!index.windows.isEmpty()) {
      BatchContext through = narrowed(context, index.through);
      works.putAll(new KeyedPass(through).run(List.of(), items, index.windows).works());
    }
  }

  private static BatchContext narrowed(BatchContext context, long through) {
    return new BatchContext(
        context.pipeline(),
        context.shape(),
        context.capture(),
        context.settings(),
        context.split(),
        context.ordered(),
        context.firstOffset(),
        context.offsets(),
        context.lateness(),
        context.firedThrough(),
        Math.min(through, context.fireUpTo()),
        context.positions(),
        context.now());
  }

  private SplitState checkpoint(
      SplitState state, Batch applied, BatchContext context, boolean successor, IndexFire index) {
    long watermark = Math.max(context.lateness(), engine.shape.watermarkAt(applied.maxTimestamp()));
    if (!batch.ordered()) {
      return Progress.afterUnorderedBatch(state, watermark, now, engine.settings.batchTimeoutMs());
    }
    long firedThrough =
        successor ? Math.max(state.firedThrough(), state.pendingThrough()) : state.firedThrough();
    long pendingThrough = successor ? Long.MIN_VALUE : state.pendingThrough();
    List<String> pending = successor ? List.of() : state.pendingTimers();
    if (index != null) {
      pendingThrough = index.through;
      pending = index.covered;
    }
    String position = applied.lastOffset() == null ? state.position() : applied.lastOffset();
    return Progress.afterOrderedBatch(
        state, position, watermark, now, firedThrough, pendingThrough, pending);
  }

  /** Writes the checkpoint; if the tick moved the split meanwhile, merges with what it wrote. */
  private void writeCheckpoint(SplitState next) {
    SplitState attempt = next;
    for (int round = 1; !engine.store().writeSplit(engine.name, attempt); round++) {
      if (round > MAX_CONFLICT_ROUNDS) {
        throw new StateStoreException(
            Reason.CONFLICT, "The checkpoint of " + split + " kept changing; the batch is retried");
      }
      SplitState stored =
          new Progress(
                  engine.store().readSplits(engine.name), now, engine.settings.batchTimeoutMs())
              .split(split);
      attempt =
          batch.ordered()
              ? Progress.afterOrderedBatch(
                  stored,
                  next.position(),
                  Math.max(next.watermark(), stored.watermark()),
                  now,
                  Math.max(next.firedThrough(), stored.firedThrough()),
                  next.pendingThrough(),
                  next.pendingTimers())
              : Progress.afterUnorderedBatch(
                  stored, next.watermark(), now, engine.settings.batchTimeoutMs());
    }
  }

  private BatchResult result(
      Batch applied, Map<String, KeyWork> works, int repeats, BatchContext context) {
    int appliedRecords = 0;
    int late = 0;
    int fired = 0;
    for (KeyWork work : works.values()) {
      appliedRecords += work.applied;
      repeats += work.repeats;
      late += work.late;
      fired += work.fired;
    }
    if (engine.shape.keyedOperator() == null) {
      appliedRecords = applied.outcomes.size();
    }
    return new BatchResult(
        applied.failedOffsets,
        Optional.ofNullable(applied.failure),
        appliedRecords,
        repeats,
        late,
        fired,
        context.fireUpTo());
  }

  private static Callable<Void> call(Runnable runnable) {
    return () -> {
      runnable.run();
      return null;
    };
  }

  /** The batch's records that are new to the split and did not fail. */
  private final class Batch {
    final List<SourceOutcome> outcomes = new ArrayList<>();
    final List<String> failedOffsets = new ArrayList<>();
    final int covered;
    String failure;

    Batch(List<SourceOutcome> all, String position) {
      int skipped = 0;
      Set<String> failedGroups = new HashSet<>();
      for (SourceOutcome outcome : all) {
        if (batch.ordered()
            && position != null
            && SourcePosition.compareOffsets(outcome.offset, position) <= 0) {
          skipped++;
          continue;
        }
        String group = group(outcome.index);
        if (group != null && failedGroups.contains(group)) {
          failedOffsets.add(outcome.offset);
          continue;
        }
        if (outcome.failed()) {
          failedOffsets.add(outcome.offset);
          failure = failure == null ? outcome.failure : failure;
          if (batch.ordered()) {
            break;
          }
          if (group != null) {
            failedGroups.add(group);
          }
          continue;
        }
        outcomes.add(outcome);
      }
      this.covered = skipped;
    }

    private String group(int index) {
      return batch.records().get(index).headers().get(SourceBatch.ORDER_GROUP);
    }

    /**
     * Record {@code source} failed in the keyed stage: it retries, and so do the records after it
     * (on a shard all of them, in a queue those of its order group).
     */
    void fail(int source, String why, boolean ordered) {
      failure = why;
      String group = group(source);
      for (int i = 0; i < outcomes.size(); i++) {
        if (outcomes.get(i).index == source) {
          if (ordered) {
            failedOffsets.clear();
          }
          List<SourceOutcome> after = outcomes.subList(i, outcomes.size());
          for (SourceOutcome later : List.copyOf(after)) {
            boolean same = later.index == source;
            if (ordered || same || (group != null && group.equals(group(later.index)))) {
              after.remove(later);
              if (same || !ordered) {
                failedOffsets.add(later.offset);
              }
            }
          }
          return;
        }
      }
      throw new IllegalStateException("No record " + source + " in the batch");
    }

    List<KeyedInput> inputs() {
      List<KeyedInput> inputs = new ArrayList<>();
      outcomes.forEach(o -> inputs.addAll(o.keyed));
      return inputs;
    }

    List<Routed> outputs() {
      List<Routed> outputs = new ArrayList<>();
      outcomes.forEach(o -> outputs.addAll(o.outputs));
      return outputs;
    }

    String firstOffset() {
      return outcomes.isEmpty()
          ? (failedOffsets.isEmpty() ? null : failedOffsets.get(0))
          : outcomes.get(0).offset;
    }

    String lastOffset() {
      return outcomes.isEmpty() ? null : outcomes.get(outcomes.size() - 1).offset;
    }

    long maxTimestamp() {
      long max = Long.MIN_VALUE;
      for (SourceOutcome o : outcomes) {
        max = Math.max(max, o.maxTimestamp);
      }
      return max;
    }
  }
}
