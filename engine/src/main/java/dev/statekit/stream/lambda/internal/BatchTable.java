package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.state.StateTable;
import dev.statekit.stream.state.StoredState;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The state table under a batch's keyed state: serves the key items read for the batch, and keeps
 * what the operators' state flushes instead of writing it, so that the batch writes each key once,
 * with its bookkeeping, on the version it read.
 */
final class BatchTable implements StateTable {
  private final Map<String, KeyItem> items;
  private final Map<String, byte[]> written = new HashMap<>();

  BatchTable(Map<String, KeyItem> items) {
    this.items = items;
  }

  @Override
  public Map<String, StoredState> read(String scope, Collection<String> keys) {
    Map<String, StoredState> found = new HashMap<>();
    for (String key : keys) {
      KeyItem item = items.get(key);
      if (item != null && item.state() != null) {
        found.put(key, new StoredState(1, item.state(), 0, null));
      }
    }
    return found;
  }

  @Override
  public void write(String scope, List<StateWrite> writes) {
    for (StateWrite write : writes) {
      written.put(write.key(), write.state() == null ? null : write.state().value());
    }
  }

  // Batch runs keep window timers in the pipeline's timer index (TimerCodec), never in collections.
  @Override
  public Map<String, byte[]> readCollection(String collection) {
    throw new UnsupportedOperationException(
        "A batch's state table keeps no collections: window timers go to the timer index");
  }

  @Override
  public void writeCollection(
      String collection, Map<String, byte[]> puts, Collection<String> deletes) {
    throw new UnsupportedOperationException(
        "A batch's state table keeps no collections: window timers go to the timer index");
  }

  /** The key's state after the batch: as flushed, or as read if it did not change. */
  byte[] stateOf(String key) {
    if (written.containsKey(key)) {
      return written.get(key);
    }
    KeyItem item = items.get(key);
    return item == null ? null : item.state();
  }
}
