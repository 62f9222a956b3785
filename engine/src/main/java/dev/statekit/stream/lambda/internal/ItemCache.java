package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.lambda.KeyItem;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Key items as this process last wrote them, least recently used evicted: a warm Lambda container
 * that sees the same keys batch after batch reads none of them again. A stale entry (the key
 * written by another invocation since) costs nothing but a retry, since every write is conditional
 * on the version read; but a key DynamoDB's TTL deleted starts again at version 1 when written
 * anew, so an entry is kept for less than the least expiry any write of the key sets ({@code
 * maxAgeMs}): until then no write since it can have been deleted, and the versions it passed never
 * come again.
 */
final class ItemCache {
  private record Entry(KeyItem item, long putAt) {}

  private final Map<String, Entry> items;
  private final long maxAgeMs;
  private final Clock clock;

  ItemCache(int maxKeys, long maxAgeMs, Clock clock) {
    this.maxAgeMs = maxAgeMs;
    this.clock = clock;
    this.items =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > maxKeys;
          }
        };
  }

  synchronized KeyItem get(String key) {
    Entry entry = items.get(key);
    if (entry == null) {
      return null;
    }
    long age = clock.millis() - entry.putAt();
    // A clock set back counts as old: the age is not known.
    if (age < 0 || age >= maxAgeMs) {
      items.remove(key);
      return null;
    }
    return entry.item();
  }

  synchronized void put(KeyItem item) {
    items.put(item.key(), new Entry(item, clock.millis()));
  }

  synchronized void remove(String key) {
    items.remove(key);
  }
}
