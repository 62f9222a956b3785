package dev.statekit.stream.internal.state;

import java.util.function.Predicate;

/**
 * The cache's map from key to {@link KeyEntry}: open addressing with linear probing over two
 * parallel arrays. A lookup reads the key array and then the entry, without a node per key in
 * between: keyed operators look up one key per record, and on a busy core that lookup's cache
 * misses are most of a worker's time.
 */
final class KeyTable {
  private Object[] keys = new Object[16];
  private KeyEntry[] entries = new KeyEntry[16];
  private int shift = Integer.SIZE - 4;
  private int size;

  /** Fibonacci hashing: the high bits of the product, independent of the routing's hash bits. */
  private int slot(Object key) {
    return (key.hashCode() * 0x9E3779B9) >>> shift;
  }

  KeyEntry get(Object key) {
    Object[] ks = keys;
    int mask = ks.length - 1;
    for (int i = slot(key); ; i = (i + 1) & mask) {
      Object k = ks[i];
      if (k == null) {
        return null;
      }
      if (k == key || k.equals(key)) {
        return entries[i];
      }
    }
  }

  /** Adds an entry for a key that is not in the table. */
  void add(KeyEntry entry) {
    if (size + 1 > keys.length >> 1) {
      grow();
    }
    insert(entry);
    size++;
  }

  private void insert(KeyEntry entry) {
    int mask = keys.length - 1;
    int i = slot(entry.key);
    while (keys[i] != null) {
      i = (i + 1) & mask;
    }
    keys[i] = entry.key;
    entries[i] = entry;
  }

  private void grow() {
    KeyEntry[] old = entries;
    keys = new Object[old.length * 2];
    entries = new KeyEntry[old.length * 2];
    shift--;
    for (KeyEntry entry : old) {
      if (entry != null) {
        insert(entry);
      }
    }
  }

  void remove(Object key) {
    int mask = keys.length - 1;
    int hole = slot(key);
    for (Object k = keys[hole]; k != key && !key.equals(k); k = keys[hole]) {
      if (k == null) {
        return;
      }
      hole = (hole + 1) & mask;
    }
    size--;
    // Move later entries of the probe run into the hole when their home slot allows, so that a
    // lookup never stops at a hole before its key.
    for (int j = (hole + 1) & mask; keys[j] != null; j = (j + 1) & mask) {
      if (((j - slot(keys[j])) & mask) >= ((j - hole) & mask)) {
        keys[hole] = keys[j];
        entries[hole] = entries[j];
        hole = j;
      }
    }
    keys[hole] = null;
    entries[hole] = null;
  }

  void removeIf(Predicate<KeyEntry> drop) {
    KeyEntry[] old = entries;
    keys = new Object[old.length];
    entries = new KeyEntry[old.length];
    size = 0;
    for (KeyEntry entry : old) {
      if (entry != null && !drop.test(entry)) {
        insert(entry);
        size++;
      }
    }
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }
}
