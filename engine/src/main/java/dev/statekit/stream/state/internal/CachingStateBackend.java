package dev.statekit.stream.state.internal;

import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.state.CheckpointLineage;
import dev.statekit.stream.state.KeyedStateStore;
import dev.statekit.stream.state.StateBackend;
import dev.statekit.stream.state.StateTable;

/** Working state in memory, written behind into a {@link StateTable} at checkpoints. */
public final class CachingStateBackend implements StateBackend {
  private final StateTable table;
  private final int maxCachedKeys;

  /** A backend over {@code table} keeping about {@code maxCachedKeys} keys per store. */
  public CachingStateBackend(StateTable table, int maxCachedKeys) {
    this.table = table;
    this.maxCachedKeys = maxCachedKeys;
  }

  @Override
  public KeyedStateStore open(
      String pipeline,
      String operator,
      Serde<Object> keySerde,
      Serde<Object> namespaceSerde,
      CheckpointLineage lineage) {
    return new KeyedStateCache(
        table, pipeline + "#" + operator, keySerde, namespaceSerde, lineage, maxCachedKeys);
  }

  /** The table state is written to; window timers are kept in its collections. */
  public StateTable table() {
    return table;
  }

  @Override
  public String toString() {
    return table.getClass().getSimpleName();
  }
}
