package dev.statekit.stream.internal.threaded;

import dev.statekit.stream.state.CheckpointLineage;
import dev.statekit.stream.state.CheckpointManifest;
import dev.statekit.stream.state.CheckpointStore;
import java.util.HashMap;
import java.util.Map;

/**
 * Collects the acknowledgements of one checkpoint from every task (the source task with its
 * positions and watermark, each worker with its parts), then writes the parts and marks the
 * checkpoint complete: the last task to acknowledge does the writing. Tasks wait for checkpoint
 * {@code n-1} to resolve before flushing state for {@code n}, so each stored item needs only two
 * versions.
 */
final class CheckpointCoordinator {
  private final String pipeline;
  private final CheckpointStore store;
  private final int tasks;
  private final PipelineRun run;
  private CheckpointLineage lineage;

  private final Map<Long, Pending> pending = new HashMap<>();
  private volatile long completed;
  private int completedCount;

  CheckpointCoordinator(
      String pipeline,
      CheckpointStore store,
      int tasks,
      CheckpointLineage lineage,
      PipelineRun run) {
    this.pipeline = pipeline;
    this.store = store;
    this.tasks = tasks;
    this.lineage = lineage;
    this.run = run;
    this.completed = lineage.latestComplete();
  }

  /** Reserves the next checkpoint's id; called when the source readers are to inject a barrier. */
  long begin() {
    return store.begin(pipeline);
  }

  /**
   * A source reader passed the barrier, with the positions of its splits and its watermark: the
   * checkpoint holds every reader's positions and the least watermark of those not {@code idle}
   * (the workers left those out), or of all if every one was.
   */
  void ackSource(
      long id,
      Map<String, String> positions,
      long watermark,
      boolean idle,
      Map<String, byte[]> parts) {
    synchronized (this) {
      Pending p = pending.computeIfAbsent(id, k -> new Pending());
      p.positions.putAll(positions);
      p.least = Math.min(p.least, watermark);
      if (!idle) {
        p.leastActive = Math.min(p.leastActive, watermark);
        p.active = true;
      }
    }
    ack(id, parts);
  }

  /**
   * A keyed worker passed the barrier at event time {@code watermark}, with its parts. A worker's
   * event time never goes back, so it may be ahead of its readers' (one idle while the others moved
   * on, then woken behind them): the windows it fired up to there must not open again after a
   * restore, so the checkpoint holds the least of the workers' event times when that is later than
   * the readers'.
   */
  void ackWorker(long id, long watermark, Map<String, byte[]> parts) {
    synchronized (this) {
      Pending p = pending.computeIfAbsent(id, k -> new Pending());
      p.leastWorker = Math.min(p.leastWorker, watermark);
    }
    ack(id, parts);
  }

  private static final class Pending {
    final Map<String, byte[]> parts = new HashMap<>();
    final Map<String, String> positions = new HashMap<>();
    long least = Long.MAX_VALUE;
    long leastActive = Long.MAX_VALUE;
    long leastWorker = Long.MAX_VALUE;
    boolean active;
    int acks;

    long watermark() {
      long readers = active ? leastActive : least == Long.MAX_VALUE ? Long.MIN_VALUE : least;
      return leastWorker == Long.MAX_VALUE ? readers : Math.max(readers, leastWorker);
    }
  }

  /** A task passed the barrier of checkpoint {@code id}, with its parts. */
  void ack(long id, Map<String, byte[]> taskParts) {
    CheckpointManifest manifest;
    Map<String, byte[]> toWrite;
    synchronized (this) {
      Pending p = pending.computeIfAbsent(id, k -> new Pending());
      p.parts.putAll(taskParts);
      if (++p.acks < tasks) {
        return;
      }
      pending.remove(id);
      lineage = lineage.completedUpTo(id);
      manifest = new CheckpointManifest(id, p.positions, p.watermark(), p.parts.keySet(), lineage);
      toWrite = p.parts;
    }
    for (var part : toWrite.entrySet()) {
      store.writePart(pipeline, id, part.getKey(), part.getValue());
    }
    store.complete(pipeline, manifest);
    synchronized (this) {
      completed = id;
      completedCount++;
      notifyAll();
    }
  }

  /** The latest complete checkpoint. */
  long completed() {
    return completed;
  }

  synchronized int completedCount() {
    return completedCount;
  }

  /** Waits until checkpoint {@code id} is complete, or the run fails. */
  void awaitComplete(long id) throws InterruptedException {
    synchronized (this) {
      while (completed < id) {
        run.throwIfFailed();
        wait(50);
      }
    }
  }

  /** Throws if another task of the run failed. */
  void throwIfFailed() {
    run.throwIfFailed();
  }

  /** Wakes waiters when the run fails. */
  synchronized void wake() {
    notifyAll();
  }
}
