package dev.statekit.stream.internal;

import dev.statekit.stream.SinkWriter;
import dev.statekit.stream.state.KeyedStateStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one task (a thread running a chain) takes part in at checkpoints: the state stores its
 * operators opened and the sink writers (main and side outputs).
 */
public final class TaskState {
  public final List<Operator> operators = new ArrayList<>();
  public final List<KeyedStateStore> stores = new ArrayList<>();
  final List<SinkWriter<?>> writers = new ArrayList<>();
  public final TaskMetrics metrics = new TaskMetrics();
  private long notified;

  /**
   * After the barrier passed the chain: flush state and prepare sinks; returns a map for the task's
   * checkpoint parts.
   */
  public Map<String, byte[]> snapshot(long checkpointId) throws Exception {
    for (KeyedStateStore store : stores) {
      store.flush(checkpointId);
    }
    for (SinkWriter<?> writer : writers) {
      writer.checkpoint(checkpointId);
    }
    return new HashMap<>();
  }

  /** Tells everyone about the latest complete checkpoint, once. Runs on the task's thread. */
  public void notifyComplete(long completed) throws Exception {
    if (completed <= notified) {
      return;
    }
    notified = completed;
    for (KeyedStateStore store : stores) {
      store.checkpointComplete(completed);
    }
    for (Operator operator : operators) {
      operator.checkpointComplete(completed);
    }
    for (SinkWriter<?> writer : writers) {
      writer.checkpointComplete(completed);
    }
  }

  /** Closes operators, stores and writers, keeping the first error. */
  public void close() throws Exception {
    Exception first = null;
    List<AutoCloseable> all = new ArrayList<>();
    operators.forEach(o -> all.add(o::close));
    all.addAll(stores);
    all.addAll(writers);
    for (AutoCloseable closeable : all) {
      try {
        closeable.close();
      } catch (Exception e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
