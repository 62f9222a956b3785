package dev.statekit.stream.state;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Durable storage under a {@link StateBackend}: one item per operator and key holding that key's
 * state as written at two checkpoints, the latest and the one before (see {@link StoredState}).
 * Besides keyed items it holds collections, listed whole on restore (window timers).
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
   * Reads every item of a collection: items that a restore lists instead of looking them up by key
   * (a window operator's timers).
   *
   * @return the items by item key; empty if the collection has none
   */
  Map<String, byte[]> readCollection(String collection);

  /**
   * Puts and deletes items of a collection (see {@link #readCollection}).
   *
   * @param puts items to put, by item key
   * @param deletes item keys to delete
   */
  void writeCollection(String collection, Map<String, byte[]> puts, Collection<String> deletes);

  /**
   * One item to write.
   *
   * @param key the encoded key
   * @param state the item, or null to delete it
   */
  record StateWrite(String key, StoredState state) {}
}
