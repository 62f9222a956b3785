package dev.statekit.stream.internal;

import dev.statekit.stream.Serde;
import dev.statekit.stream.Sink;
import dev.statekit.stream.SinkWriter;
import dev.statekit.stream.state.CheckpointLineage;
import dev.statekit.stream.state.KeyedStateStore;
import dev.statekit.stream.state.StateBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What a running operator gets from its worker: state, side outputs, parts and metrics. */
public final class OperatorContext {
  private final String pipeline;
  private final String operatorId;
  private final int worker;
  private final int workers;
  private final Routing routing;
  private final StateBackend backend;
  private final CheckpointLineage lineage;
  private final Map<String, byte[]> restoredParts;
  private final long restoredWatermark;
  private final TaskState task;

  OperatorContext(
      String pipeline,
      String operatorId,
      int worker,
      int workers,
      Routing routing,
      StateBackend backend,
      CheckpointLineage lineage,
      Map<String, byte[]> restoredParts,
      long restoredWatermark,
      TaskState task) {
    this.pipeline = pipeline;
    this.operatorId = operatorId;
    this.worker = worker;
    this.workers = workers;
    this.routing = routing;
    this.backend = backend;
    this.lineage = lineage;
    this.restoredParts = restoredParts;
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
    return writer;
  }

  /** Stores this worker's snapshot of the operator in the checkpoint in progress. */
  public void writePart(byte[] data) {
    task.parts.put(operatorId + "/" + worker, data);
  }

  /** The parts every worker of this operator wrote into the restored checkpoint. */
  public List<byte[]> restoredParts() {
    List<byte[]> mine = new ArrayList<>();
    restoredParts.forEach(
        (name, data) -> {
          if (name.startsWith(operatorId + "/")) {
            mine.add(data);
          }
        });
    return mine;
  }

  /** True if {@code key} is routed to this worker (used to pick restored timers). */
  public boolean ownsKey(Object key) {
    return routing == null || routing.partition(key) == worker;
  }
}
