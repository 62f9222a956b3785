package dev.statekit.stream.state;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link StateTable} in this process's memory: the durable side of the in-memory backend. */
public final class InMemoryStateTable implements StateTable {
  private final Map<String, Map<String, StoredState>> scopes = new ConcurrentHashMap<>();
  private final Map<String, Map<String, byte[]>> collections = new ConcurrentHashMap<>();

  @Override
  public Map<String, StoredState> read(String scope, Collection<String> keys) {
    Map<String, StoredState> items = scopes.getOrDefault(scope, Map.of());
    Map<String, StoredState> found = new HashMap<>();
    keys.forEach(key -> StateItemLimits.checkKey(scope, key));
    for (String key : keys) {
      StoredState item = items.get(key);
      if (item != null) {
        found.put(key, item);
      }
    }
    return found;
  }

  @Override
  public void write(String scope, List<StateWrite> writes) {
    for (StateWrite write : writes) {
      if (write.state() == null) {
        StateItemLimits.checkKey(scope, write.key());
      } else {
        StateItemLimits.checkState(
            scope,
            write.key(),
            length(write.state().value()) + length(write.state().previousValue()));
      }
    }
    Map<String, StoredState> items = scopes.computeIfAbsent(scope, s -> new ConcurrentHashMap<>());
    for (StateWrite write : writes) {
      if (write.state() == null) {
        items.remove(write.key());
      } else {
        items.put(write.key(), write.state());
      }
    }
  }

  @Override
  public Map<String, byte[]> readCollection(String collection) {
    return Map.copyOf(collections.getOrDefault(collection, Map.of()));
  }

  @Override
  public void writeCollection(
      String collection, Map<String, byte[]> puts, Collection<String> deletes) {
    puts.forEach((key, data) -> StateItemLimits.checkCollectionItem(collection, key, data.length));
    Map<String, byte[]> items =
        collections.computeIfAbsent(collection, c -> new ConcurrentHashMap<>());
    items.putAll(puts);
    deletes.forEach(items::remove);
  }

  /** How many items one collection holds (for tests and metrics). */
  public int collectionSize(String collection) {
    return collections.getOrDefault(collection, Map.of()).size();
  }

  /** How many items one scope holds (for tests and metrics). */
  public int size(String scope) {
    return scopes.getOrDefault(scope, Map.of()).size();
  }

  private static int length(byte[] bytes) {
    return bytes == null ? 0 : bytes.length;
  }
}
