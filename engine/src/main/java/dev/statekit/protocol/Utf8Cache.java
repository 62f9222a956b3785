package dev.statekit.protocol;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The UTF-8 bytes of the strings that recur in every answer (type names, egress names, state
 * names), encoded once instead of on every write. Bounded: past its size new strings are simply
 * encoded each time.
 */
final class Utf8Cache {
  private static final int MAX_ENTRIES = 4096;
  private static final int RECENT_SLOTS = 64;

  /**
   * The longest string kept: names are short, and a request can make one as long as itself (a
   * caller's namespace a function answers), which would otherwise stay with the handler for good.
   */
  private static final int MAX_KEPT_LENGTH = 256;

  private final ConcurrentHashMap<String, byte[]> cache = new ConcurrentHashMap<>();

  /**
   * The same few string instances (a type name's parts, a spec's name) come back for every value
   * written: a direct-mapped table checked by identity answers them before the map is asked.
   */
  private final Entry[] recent = new Entry[RECENT_SLOTS];

  byte[] bytes(String value) {
    int slot = value.hashCode() & (RECENT_SLOTS - 1);
    Entry entry = recent[slot];
    if (entry != null && entry.key == value) {
      return entry.bytes;
    }
    byte[] bytes = cache.get(value);
    if (bytes == null) {
      bytes = value.getBytes(StandardCharsets.UTF_8);
      if (value.length() > MAX_KEPT_LENGTH) {
        return bytes;
      }
      if (cache.size() < MAX_ENTRIES) {
        cache.putIfAbsent(value, bytes);
      }
    }
    recent[slot] = new Entry(value, bytes);
    return bytes;
  }

  private static final class Entry {
    final String key;
    final byte[] bytes;

    Entry(String key, byte[] bytes) {
      this.key = key;
      this.bytes = bytes;
    }
  }
}
