package dev.statekit.stream.internal.batch;

import dev.statekit.runtime.internal.ParallelCalls;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchFaultHook;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.stream.lambda.BatchStore.KeyWrite;
import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.lambda.SplitState;
import dev.statekit.stream.lambda.TickResult;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * Runs one pipeline batch by batch ({@link BatchFlow}) and tick by tick ({@link TickFlow}): what
 * both share, built once per pipeline. Thread-safe: batches of different splits may run at once.
 */
public final class BatchEngine {
  final String name;
  final PlanShape shape;
  final BatchSettings settings;
  final TimerCodec codec;
  private final ItemCache cache;
  private final ParallelCalls parallel = new ParallelCalls(16);

  /**
   * The engine of {@code pipeline}.
   *
   * @throws IllegalArgumentException if the pipeline cannot run batch by batch (says why)
   */
  public BatchEngine(String name, Pipeline pipeline, BatchSettings settings) {
    this.name = name;
    this.shape = new PlanShape(pipeline);
    this.settings = settings;
    this.codec = shape.hasKeyedStage() ? new TimerCodec(shape.keySerde()) : null;
    this.cache = new ItemCache(settings.maxCachedKeys());
  }

  /** Processes one batch. */
  public BatchResult process(SourceBatch batch) throws Exception {
    return new BatchFlow(this, batch).run();
  }

  /** Advances idle splits and fires due windows. */
  public TickResult tick() throws Exception {
    return new TickFlow(this).run();
  }

  /**
   * Records splits the pipeline has not seen yet, so that no window fires before their first batch
   * (or their idle timeout).
   *
   * @return the splits added
   */
  public List<String> registerSplits(Collection<String> splits) {
    Set<String> known = new HashSet<>();
    store().readSplits(name).forEach(split -> known.add(split.split()));
    long now = settings.clock().millis();
    List<String> added = new ArrayList<>();
    for (String split : new TreeSet<>(splits)) {
      if (known.contains(split)) {
        continue;
      }
      SplitState fresh = SplitState.fresh(split);
      SplitState registered =
          new SplitState(
              split,
              1,
              null,
              fresh.watermark(),
              fresh.fireWatermark(),
              fresh.candidate(),
              0,
              now,
              fresh.firedThrough(),
              fresh.pendingThrough(),
              List.of());
      if (store().writeSplit(name, registered)) {
        added.add(split);
      }
    }
    return added;
  }

  BatchStore store() {
    return settings.store();
  }

  void reached(BatchFaultHook.Step step, String detail) {
    settings.hook().reached(step, detail);
  }

  /** Runs the calls at once and waits for all; rethrows the first failure. */
  void together(List<Callable<Void>> calls) {
    parallel.all(calls);
  }

  /** Items of keys: from this process's cache where it has them, unless {@code fresh}. */
  Map<String, KeyItem> readKeys(Collection<String> keys, boolean fresh) {
    Map<String, KeyItem> items = new HashMap<>();
    List<String> missing = new ArrayList<>();
    for (String key : new HashSet<>(keys)) {
      KeyItem cached = fresh ? null : cache.get(key);
      if (cached != null) {
        items.put(key, cached);
      } else {
        missing.add(key);
      }
    }
    if (!missing.isEmpty()) {
      Map<String, KeyItem> read = store().readKeys(name, shape.keyedOperator(), missing);
      read.values().forEach(cache::put);
      items.putAll(read);
    }
    return items;
  }

  /**
   * Writes the keys' items, each on the version it read. The fault hook may stop some writes (a
   * crash in the middle of the flush): the others are written, then its failure is thrown.
   *
   * @return the keys whose write conflicted
   */
  Set<String> writeKeys(Collection<KeyWork> works) {
    List<KeyWrite> writes = new ArrayList<>();
    RuntimeException stopped = null;
    for (KeyWork work : works) {
      if (work.write == null) {
        continue;
      }
      try {
        reached(BatchFaultHook.Step.KEY_WRITE, work.encoded);
        writes.add(work.write);
      } catch (RuntimeException e) {
        stopped = stopped == null ? e : stopped;
      }
    }
    Set<String> conflicts =
        writes.isEmpty() ? Set.of() : store().writeKeys(name, shape.keyedOperator(), writes);
    for (KeyWrite write : writes) {
      if (conflicts.contains(write.key()) || write.expiresAt() > 0) {
        // An item DynamoDB's TTL may delete starts again at version 1 when written anew, so a
        // cached copy could match a newer item's version: such keys are read every time.
        cache.remove(write.key());
      } else {
        cache.put(
            new KeyItem(
                write.key(), write.expectedVersion() + 1, write.state(), write.bookkeeping()));
      }
    }
    if (stopped != null) {
      throw stopped;
    }
    return conflicts;
  }
}
