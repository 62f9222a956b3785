package dev.statekit.stream.state.internal;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The keys of one store, open-addressed: the table holds the entries themselves, each with its
 * key's hash, so that a lookup is one load into the table and one into the entry. A chained hash
 * map adds a node between the two, which is one more cache miss per record on a key set larger than
 * the cache; this map also takes a quarter of a chained map's heap per key.
 *
 * <p>Linear probing over a power-of-two table at most half full; a removal shifts the entries after
 * it back, so no tombstones build up. Not thread-safe: a store belongs to one worker.
 */
final class KeyEntryMap {
  private static final int MIN_CAPACITY = 16;

  private KeyEntry[] table = new KeyEntry[MIN_CAPACITY];
  private int mask = MIN_CAPACITY - 1;
  private int shift = Integer.numberOfLeadingZeros(MIN_CAPACITY) + 1;
  private int size;

  /** The entry of {@code key}, or null. */
  KeyEntry get(Object key) {
    int hash = key.hashCode();
    KeyEntry[] t = table;
    int m = mask;
    for (int i = slot(hash, shift); ; i = (i + 1) & m) {
      KeyEntry entry = t[i];
      if (entry == null) {
        return null;
      }
      if (entry.hash == hash && (entry.key == key || entry.key.equals(key))) {
        return entry;
      }
    }
  }

  /** Adds {@code entry}, whose key must not be in the map. */
  void add(KeyEntry entry) {
    if (size + 1 > (table.length >> 1)) {
      resize(table.length << 1);
    }
    insert(table, shift, entry);
    size++;
  }

  /** Removes the entry of {@code key}; true if there was one. */
  boolean remove(Object key) {
    int hash = key.hashCode();
    KeyEntry[] t = table;
    int m = mask;
    int s = shift;
    int i = slot(hash, s);
    while (true) {
      KeyEntry entry = t[i];
      if (entry == null) {
        return false;
      }
      if (entry.hash == hash && (entry.key == key || entry.key.equals(key))) {
        break;
      }
      i = (i + 1) & m;
    }
    // Shift back every following entry of the run that may sit at or before the hole.
    int hole = i;
    for (int j = (hole + 1) & m; t[j] != null; j = (j + 1) & m) {
      int home = slot(t[j].hash, s);
      if (((j - home) & m) >= ((j - hole) & m)) {
        t[hole] = t[j];
        hole = j;
      }
    }
    t[hole] = null;
    size--;
    return true;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  void forEach(Consumer<KeyEntry> action) {
    for (KeyEntry entry : table) {
      if (entry != null) {
        action.accept(entry);
      }
    }
  }

  /** Removes the entries {@code filter} accepts (testing each once), rebuilding the table once. */
  void removeIf(Predicate<KeyEntry> filter) {
    KeyEntry[] kept = new KeyEntry[size];
    int count = 0;
    for (KeyEntry entry : table) {
      if (entry != null && !filter.test(entry)) {
        kept[count++] = entry;
      }
    }
    if (count == size) {
      return;
    }
    rebuild(capacityFor(count), kept, count);
    size = count;
  }

  private static int capacityFor(int entries) {
    int capacity = MIN_CAPACITY;
    while (entries > (capacity >> 1)) {
      capacity <<= 1;
    }
    return capacity;
  }

  private void resize(int capacity) {
    rebuild(capacity, table, table.length);
  }

  private void rebuild(int capacity, KeyEntry[] entries, int count) {
    KeyEntry[] fresh = new KeyEntry[capacity];
    int s = Integer.numberOfLeadingZeros(capacity) + 1;
    for (int i = 0; i < count; i++) {
      if (entries[i] != null) {
        insert(fresh, s, entries[i]);
      }
    }
    table = fresh;
    mask = capacity - 1;
    shift = s;
  }

  private static void insert(KeyEntry[] t, int s, KeyEntry entry) {
    int m = t.length - 1;
    int i = slot(entry.hash, s);
    while (t[i] != null) {
      i = (i + 1) & m;
    }
    t[i] = entry;
  }

  /**
   * Fibonacci hashing, the high bits of the hash times 2^32 / phi: keys with nearby hash codes
   * ("k1", "k2") land far apart, which linear probing needs.
   */
  private static int slot(int hash, int shift) {
    return (hash * 0x9E3779B9) >>> shift;
  }
}
