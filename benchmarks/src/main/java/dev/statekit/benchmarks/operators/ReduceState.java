package dev.statekit.benchmarks.operators;

import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.CheckpointLineage;
import dev.statekit.stream.state.KeyedStateStore;
import dev.statekit.stream.state.StateBackend;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;

/**
 * The state of one reduce operator on one worker, filled directly through the backend port so that
 * its footprint and checkpoint cost can be measured without a pipeline around it.
 */
final class ReduceState {
  final KeyedStateStore store;
  private final ValueState<Long> sum;
  private long checkpoint;

  ReduceState(StateBackend backend, String pipeline) {
    store =
        backend.open(pipeline, "1.0-reduce", Serdes.auto(), Serdes.auto(), CheckpointLineage.EMPTY);
    sum = store.register(StateSpec.value("reduce", Serdes.longs()));
  }

  /**
   * Adds {@code delta} to the sums of keys {@code k<from>} to {@code k<to-1>}, stepping by step.
   */
  void add(int from, int to, int step, long delta) {
    for (int i = from; i < to; i += step) {
      store.setCurrentKey("k" + i);
      Long current = sum.value();
      sum.update(current == null ? delta : current + delta);
    }
  }

  /** Takes a checkpoint (flush, then complete) and returns its duration in ms. */
  double checkpoint() {
    long start = System.nanoTime();
    checkpoint++;
    store.flush(checkpoint);
    store.checkpointComplete(checkpoint);
    return (System.nanoTime() - start) / 1e6;
  }
}
