package dev.statekit.stream.state;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Durable storage under a {@link StateBackend}: one item per operator and key holding that key's
 * state as written at two checkpoints, the latest and the one before (see {@link StoredState}).
 * Implementations translate their vendor's errors into {@link StateStoreException}.
 */
public interface StateTable {
  /**
   * Reads the items of some keys of one operator.
   *
   * @param scope identifies the pipeline and operator
   * @return the items found, by key; keys without an item are absent
   */
  Map<String, StoredState> read(String scope, Collection<String> keys);

  /** Puts or deletes items of one operator; a write with a null state deletes the item. */
  void write(String scope, List<StateWrite> writes);

  /**
   * One item to write.
   *
   * @param key the encoded key
   * @param state the item, or null to delete it
   */
  record StateWrite(String key, StoredState state) {}
}
