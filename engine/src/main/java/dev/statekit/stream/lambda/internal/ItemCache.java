package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.lambda.KeyItem;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Key items as this process last read or wrote them, least recently used evicted: a warm Lambda
 * container that sees the same keys batch after batch reads none of them again. A stale entry (the
 * key written by another invocation since) costs nothing but a retry, since every write is
 * conditional on the version read.
 */
final class ItemCache {
  private final Map<String, KeyItem> items;

  ItemCache(int maxKeys) {
    this.items =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, KeyItem> eldest) {
            return size() > maxKeys;
          }
        };
  }

  synchronized KeyItem get(String key) {
    return items.get(key);
  }

  synchronized void put(KeyItem item) {
    items.put(item.key(), item);
  }

  synchronized void remove(String key) {
    items.remove(key);
  }
}
