package dev.statekit.stream.internal;

import dev.statekit.stream.Sink;
import dev.statekit.stream.SinkWriter;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.state.CheckpointLineage;
import dev.statekit.stream.state.KeyedStateStore;
import dev.statekit.stream.state.StateBackend;
import dev.statekit.stream.state.internal.CachingStateBackend;

/** What a running operator gets from its worker: state, timers, side outputs and metrics. */
public final class OperatorContext {
  private final String pipeline;
  private final String operatorId;
  private final int worker;
  private final int workers;
  private final Routing routing;
  private final StateBackend backend;
  private final CheckpointLineage lineage;
  private final long restoredWatermark;
  private final TaskState task;

  public OperatorContext(
      String pipeline,
      String operatorId,
      int worker,
      int workers,
      Routing routing,
      StateBackend backend,
      CheckpointLineage lineage,
      long restoredWatermark,
      TaskState task) {
    this.pipeline = pipeline;
    this.operatorId = operatorId;
    this.worker = worker;
    this.workers = workers;
    this.routing = routing;
    this.backend = backend;
    this.lineage = lineage;
    this.restoredWatermark = restoredWatermark;
    this.task = task;
  }

  /** The operator's id, stable across runs of the same pipeline. */
  public String operatorId() {
    return operatorId;
  }

  /** This worker's index. */
  public int worker() {
    return worker;
  }

  /** How many workers run this operator. */
  public int workers() {
    return workers;
  }

  /** The counters of this worker. */
  public TaskMetrics metrics() {
    return task.metrics;
  }

  /** The watermark of the restored checkpoint, or {@link Long#MIN_VALUE}. */
  public long restoredWatermark() {
    return restoredWatermark;
  }

  /** Opens this operator's keyed state on this worker; it is flushed at every barrier. */
  public KeyedStateStore openStore(Serde<Object> keySerde, Serde<Object> namespaceSerde) {
    KeyedStateStore store = backend.open(pipeline, operatorId, keySerde, namespaceSerde, lineage);
    task.stores.add(store);
    return store;
  }

  /** Opens a side output's writer, checkpointed with this worker. */
  public <T> SinkWriter<T> openSideOutput(Sink<T> sink) throws Exception {
    SinkWriter<T> writer = sink.open(worker, workers());
    task.writers.add(writer);
    if (writer instanceof KeyNamingWriter naming) {
      naming.keysWrittenBy(routing == null ? null : routing.keySerde());
    }
    return writer;
  }

  /**
   * Opens the event-time timers of this operator on this worker, kept in the state backend's table
   * and restored from the checkpoint this run started from.
   *
   * @throws IllegalArgumentException if the state backend has no table to keep timers in
   */
  EventTimers openTimers(Serde<Object> keySerde, boolean sessions) {
    if (!(backend instanceof CachingStateBackend caching)) {
      throw new IllegalArgumentException(
          "Windows keep their timers in the state backend's table, but "
              + backend
              + " has none: use StateBackend.inMemory() or StateBackend.over(table, maxKeys)");
    }
    String collection = pipeline + "#" + operatorId + "#timers";
    EventTimers timers = new EventTimers(sessions, caching.table(), collection, keySerde, worker);
    if (lineage.latestComplete() > 0) {
      timers.restore(lineage, restoredWatermark, workers, this::ownsKey);
    }
    return timers;
  }

  /** True if {@code key} is routed to this worker (used to pick restored timers). */
  public boolean ownsKey(Object key) {
    return routing == null || routing.partition(key) == worker;
  }
}
