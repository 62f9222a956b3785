package dev.statekit.stream.state;

import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.state.internal.CachingStateBackend;

/**
 * Where operators keep keyed state. Both backends hold the working state in memory and write the
 * keys changed since the last checkpoint, at the checkpoint barrier, into a {@link StateTable}: a
 * checkpoint costs in proportion to the state changed, not to all state, and a restore reads keys
 * back lazily as they are used.
 */
public interface StateBackend {
  /**
   * Opens the store of one operator on one worker.
   *
   * @param pipeline the pipeline's name
   * @param operator the operator's id, stable across runs
   * @param keySerde writes keys that are not strings
   * @param namespaceSerde writes namespaces other than {@link KeyedStateStore#NO_NAMESPACE}
   * @param lineage which stored versions belong to the restored checkpoint
   */
  KeyedStateStore open(
      String pipeline,
      String operator,
      Serde<Object> keySerde,
      Serde<Object> namespaceSerde,
      CheckpointLineage lineage);

  /** Keeps everything in this process: state survives a failed run, not the process. */
  static StateBackend inMemory() {
    return new CachingStateBackend(new InMemoryStateTable(), Integer.MAX_VALUE);
  }

  /**
   * Keeps working state in memory over {@code table}, holding at most about {@code maxCachedKeys}
   * keys per operator and worker (unchanged keys are evicted after checkpoints).
   */
  static StateBackend over(StateTable table, int maxCachedKeys) {
    if (maxCachedKeys < 1) {
      throw new IllegalArgumentException("maxCachedKeys must be >= 1, got " + maxCachedKeys);
    }
    return new CachingStateBackend(table, maxCachedKeys);
  }
}
