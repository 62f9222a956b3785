package dev.statekit.stream.internal.threaded;

import dev.statekit.stream.PipelineFailedException;
import dev.statekit.stream.PipelineResult;
import dev.statekit.stream.RunOptions;
import dev.statekit.stream.RunningPipeline;
import dev.statekit.stream.Sink;
import dev.statekit.stream.internal.Operator;
import dev.statekit.stream.internal.Plan;
import dev.statekit.stream.internal.TaskState;
import dev.statekit.stream.internal.WatermarkSpec;
import dev.statekit.stream.state.CheckpointLineage;
import dev.statekit.stream.state.CheckpointStore.StoredCheckpoint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One run of a planned pipeline: restores the latest complete checkpoint, wires a thread per task
 * (each reader of the source stage, and each worker of each keyed stage) with bounded queues
 * between stages, and stops every thread when one fails.
 */
public final class PipelineRun implements RunningPipeline {
  private final Plan plan;
  private final RunOptions options;
  private final List<Thread> threads = new ArrayList<>();
  private final List<TaskState> states = new ArrayList<>();
  private volatile Throwable failure;
  private final List<SourceTask> sourceTasks = new ArrayList<>();
  private CheckpointCoordinator coordinator;
  private long restoredFrom;

  /** A run of {@code plan}; nothing starts before {@link #start()}. */
  public PipelineRun(Plan plan, RunOptions options) {
    this.plan = plan;
    this.options = options;
  }

  /**
   * Restores, wires and starts the tasks; if that fails, closes what the tasks had opened (sink
   * writers, state stores) before rethrowing.
   */
  public PipelineRun start() throws Exception {
    try {
      wire();
    } catch (Exception | Error e) {
      for (TaskState state : states) {
        try {
          state.close();
        } catch (Exception closing) {
          e.addSuppressed(closing);
        }
      }
      throw e;
    }
    threads.forEach(Thread::start);
    return this;
  }

  private void wire() throws Exception {
    String name = options.name();
    var store = options.checkpointStore();
    Optional<StoredCheckpoint> latest = options.restore() ? store.latest(name) : Optional.empty();
    restoredFrom = latest.map(c -> c.manifest().id()).orElse(0L);
    CheckpointLineage lineage = lineage(latest, store.lastReserved(name));
    Map<String, byte[]> parts = latest.map(StoredCheckpoint::parts).orElse(Map.of());
    Map<String, String> positions = latest.map(c -> c.manifest().positions()).orElse(Map.of());
    long watermark = latest.map(c -> c.manifest().watermark()).orElse(Long.MIN_VALUE);
    Set<Sink<?>> sinks = Collections.newSetFromMap(new IdentityHashMap<>());
    sinks.addAll(plan.sinks());
    for (Sink<?> sink : sinks) {
      sink.recover(restoredFrom);
    }

    int tasks = 0;
    for (Plan.Stage stage : plan.stages()) {
      tasks += stage.parallelism();
    }
    coordinator = new CheckpointCoordinator(name, store, tasks, lineage, this);
    Wiring wiring = new Wiring(plan, options, lineage, watermark);

    List<BlockingQueue<Chunk>[]> queues = new ArrayList<>();
    queues.add(null);
    for (int s = 1; s < plan.stages().size(); s++) {
      queues.add(queues(plan.stages().get(s).parallelism(), plan.stages().get(s - 1)));
    }
    for (int s = plan.stages().size() - 1; s >= 1; s--) {
      Plan.Stage stage = plan.stages().get(s);
      for (int w = 0; w < stage.parallelism(); w++) {
        TaskState state = newState();
        KeyedExchange exchange = wiring.exchange(s + 1, w, queues);
        Operator head = wiring.chain(s, w, state, exchange);
        int channels = plan.stages().get(s - 1).parallelism();
        WorkerTask task =
            new WorkerTask(
                queues.get(s)[w], channels, head, exchange, state, coordinator, watermark);
        spawn(name + "-stage" + s + "-worker" + w, task, state);
      }
    }
    spawnReaders(wiring, queues, latest.isPresent(), parts, positions, watermark);
  }

  /** A task's state, closed by {@link #start()} should wiring fail after it was made. */
  private TaskState newState() {
    TaskState state = new TaskState();
    states.add(state);
    return state;
  }

  /** One task per source reader, each with its own chain and watermark generator. */
  private void spawnReaders(
      Wiring wiring,
      List<BlockingQueue<Chunk>[]> queues,
      boolean restored,
      Map<String, byte[]> parts,
      Map<String, String> positions,
      long watermark)
      throws Exception {
    int readers = plan.stages().get(0).parallelism();
    SourceBarriers barriers =
        new SourceBarriers(coordinator, readers, options.checkpointInterval().toNanos());
    for (int r = 0; r < readers; r++) {
      TaskState state = newState();
      KeyedExchange exchange = wiring.exchange(1, r, queues);
      Operator head = wiring.chain(0, r, state, exchange);
      WatermarkSpec.Generator generator = Wiring.generator(state);
      if (generator != null) {
        byte[] part = parts.get(SourceTask.part(r, readers));
        if (part != null) {
          generator.restore(part);
        } else if (restored) {
          // The checkpoint was taken with other readers: resume from its (least) watermark.
          generator.resumeAt(watermark);
        }
      }
      SourceTask task =
          new SourceTask(
              plan.source(),
              r,
              readers,
              positions,
              head,
              generator,
              exchange,
              state,
              coordinator,
              barriers,
              options.fireWindowsAtEnd());
      sourceTasks.add(task);
      spawn(options.name() + "-source" + (readers == 1 ? "" : "-reader" + r), task, state);
    }
  }

  private static CheckpointLineage lineage(Optional<StoredCheckpoint> latest, long reserved) {
    long latestId = latest.map(c -> c.manifest().id()).orElse(0L);
    List<long[]> abandoned = new ArrayList<>();
    latest.ifPresent(c -> abandoned.addAll(c.manifest().lineage().abandoned()));
    if (reserved > latestId) {
      // Checkpoints begun after the restored one never completed: their writes don't count.
      abandoned.add(new long[] {latestId + 1, reserved});
    }
    return new CheckpointLineage(latestId, abandoned);
  }

  @SuppressWarnings("unchecked")
  private BlockingQueue<Chunk>[] queues(int workers, Plan.Stage upstream) {
    BlockingQueue<Chunk>[] queues = new BlockingQueue[workers];
    for (int i = 0; i < workers; i++) {
      queues[i] = new ArrayBlockingQueue<>(options.queueChunks() * upstream.parallelism() + 1);
    }
    return queues;
  }

  private void spawn(String threadName, Runnable task, TaskState state) {
    Thread thread =
        new Thread(
            () -> {
              Throwable error = null;
              try {
                task.run();
              } catch (Throwable t) {
                error = t;
              }
              try {
                state.close();
              } catch (Exception e) {
                error = error == null ? e : error;
              }
              if (error != null) {
                fail(error);
              }
            },
            "statekit-" + threadName);
    thread.setDaemon(true);
    threads.add(thread);
  }

  private void fail(Throwable error) {
    synchronized (this) {
      if (failure != null) {
        return;
      }
      failure = error;
    }
    for (Thread thread : threads) {
      if (thread != Thread.currentThread()) {
        thread.interrupt();
      }
    }
    coordinator.wake();
  }

  /** Throws if another task failed: tasks waiting on each other stop instead. */
  void throwIfFailed() {
    if (failure != null) {
      throw new RunAbortedException();
    }
  }

  @Override
  public void stop() {
    sourceTasks.forEach(SourceTask::requestStop);
  }

  @Override
  public PipelineResult await() throws InterruptedException {
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure != null) {
      throw new PipelineFailedException(
          "Pipeline '" + options.name() + "' failed: " + failure.getMessage(), failure);
    }
    long late = 0;
    long dropped = 0;
    long dead = 0;
    long read = 0;
    for (TaskState state : states) {
      late += state.metrics.late;
      dropped += state.metrics.dropped;
      dead += state.metrics.deadLettered;
      read += state.metrics.recordsIn;
    }
    return new PipelineResult(
        restoredFrom,
        coordinator.completed(),
        coordinator.completedCount(),
        read,
        late,
        dropped,
        dead);
  }

  /** Waits at most {@code timeout} for the run to end; true if it did. */
  public boolean awaitQuietly(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    for (Thread thread : threads) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      thread.join(Math.max(1, left));
      if (thread.isAlive()) {
        return false;
      }
    }
    return true;
  }

  /** Thrown in tasks that stop because another task failed. */
  static final class RunAbortedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RunAbortedException() {
      super("another task of the pipeline failed", null, false, false);
    }
  }
}
