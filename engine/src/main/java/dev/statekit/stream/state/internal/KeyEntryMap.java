package dev.statekit.stream.state.internal;

import java.util.HashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The keys of one store, open-addressed: the table holds the entries themselves, each with its
 * key's hash, so that a lookup is one load into the table and one into the entry. A chained hash
 * map adds a node between the two, which is one more cache miss per record on a key set larger than
 * the cache; the map's own bookkeeping per key is also smaller (no node), which takes about a sixth
 * off the heap per key of keyed state as a whole (181 to 150 MB per million keys of reduce state).
 *
 * <p>Linear probing over a power-of-two table at most half full; a removal shifts the entries after
 * it back, so no tombstones build up. Not thread-safe: a store belongs to one worker.
 *
 * <p>Keys are user data, and so are their hash codes: keys sharing one hash code, or distinct hash
 * codes that land on the same slots, would make one run of the table that every lookup, insertion
 * and removal walks, quadratic in the number of such keys. No entry therefore sits more than {@link
 * #MAX_PROBES} slots from its home: an entry that finds no free slot that near goes to an overflow
 * {@link HashMap} instead, which keeps colliding comparable keys in a tree. Ordinary keys never get
 * there (at half load a run of that length is vanishingly rare), and while the overflow is empty it
 * costs a lookup nothing.
 */
final class KeyEntryMap {
  private static final int MIN_CAPACITY = 16;

  /** How far from its home slot an entry may sit; also bounds every probe and every shift. */
  static final int MAX_PROBES = 32;

  private KeyEntry[] table = new KeyEntry[MIN_CAPACITY];
  private int mask = MIN_CAPACITY - 1;
  private int shift = Integer.numberOfLeadingZeros(MIN_CAPACITY) + 1;
  private int size;

  /** The entries in the table (the others are in {@link #overflow}). */
  private int inTable;

  /** The entries that found no slot near their home; null while there are none. */
  private HashMap<Object, KeyEntry> overflow;

  /** The entry of {@code key}, or null. */
  KeyEntry get(Object key) {
    int hash = key.hashCode();
    KeyEntry[] t = table;
    int m = mask;
    int i = slot(hash, shift);
    for (int probes = 0; probes < MAX_PROBES; probes++, i = (i + 1) & m) {
      KeyEntry entry = t[i];
      if (entry == null) {
        break;
      }
      if (entry.hash == hash && (entry.key == key || entry.key.equals(key))) {
        return entry;
      }
    }
    return overflow == null ? null : overflow.get(key);
  }

  /** Adds {@code entry}, whose key must not be in the map. */
  void add(KeyEntry entry) {
    if (inTable + 1 > (table.length >> 1)) {
      resize(table.length << 1);
    }
    place(entry);
    size++;
  }

  /** Removes the entry of {@code key}; true if there was one. */
  boolean remove(Object key) {
    int hash = key.hashCode();
    KeyEntry[] t = table;
    int m = mask;
    int s = shift;
    int i = slot(hash, s);
    for (int probes = 0; ; probes++, i = (i + 1) & m) {
      KeyEntry entry = t[i];
      if (entry == null || probes == MAX_PROBES) {
        return removeOverflow(key);
      }
      if (entry.hash == hash && (entry.key == key || entry.key.equals(key))) {
        break;
      }
    }
    // Shift back every following entry of the run that may sit at or before the hole. An entry
    // MAX_PROBES or more past the hole has its home after it (it sits nearer its home than that),
    // and so has every entry beyond: the scan ends there even inside a long run.
    int hole = i;
    for (int j = (hole + 1) & m; t[j] != null && ((j - hole) & m) < MAX_PROBES; j = (j + 1) & m) {
      int home = slot(t[j].hash, s);
      if (((j - home) & m) >= ((j - hole) & m)) {
        t[hole] = t[j];
        hole = j;
      }
    }
    t[hole] = null;
    inTable--;
    size--;
    return true;
  }

  private boolean removeOverflow(Object key) {
    if (overflow == null || overflow.remove(key) == null) {
      return false;
    }
    if (overflow.isEmpty()) {
      overflow = null;
    }
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
    if (overflow != null) {
      overflow.values().forEach(action);
    }
  }

  /** Removes the entries {@code filter} accepts (testing each once), rebuilding the table once. */
  void removeIf(Predicate<KeyEntry> filter) {
    KeyEntry[] kept = new KeyEntry[size];
    int count = 0;
    for (KeyEntry entry : entries()) {
      if (!filter.test(entry)) {
        kept[count++] = entry;
      }
    }
    if (count == size) {
      return;
    }
    rebuild(capacityFor(count), kept, count);
  }

  private static int capacityFor(int entries) {
    int capacity = MIN_CAPACITY;
    while (entries > (capacity >> 1)) {
      capacity <<= 1;
    }
    return capacity;
  }

  private void resize(int capacity) {
    rebuild(capacity, entries(), size);
  }

  /** Every entry, the table's then the overflow's. */
  private KeyEntry[] entries() {
    KeyEntry[] all = new KeyEntry[size];
    int count = 0;
    for (KeyEntry entry : table) {
      if (entry != null) {
        all[count++] = entry;
      }
    }
    if (overflow != null) {
      for (KeyEntry entry : overflow.values()) {
        all[count++] = entry;
      }
    }
    return all;
  }

  private void rebuild(int capacity, KeyEntry[] entries, int count) {
    table = new KeyEntry[capacity];
    mask = capacity - 1;
    shift = Integer.numberOfLeadingZeros(capacity) + 1;
    inTable = 0;
    overflow = null;
    size = count;
    for (int i = 0; i < count; i++) {
      place(entries[i]);
    }
  }

  /** Puts {@code entry} in the first free slot near its home, or else in the overflow. */
  private void place(KeyEntry entry) {
    KeyEntry[] t = table;
    int m = mask;
    int i = slot(entry.hash, shift);
    for (int probes = 0; probes < MAX_PROBES; probes++, i = (i + 1) & m) {
      if (t[i] == null) {
        t[i] = entry;
        inTable++;
        return;
      }
    }
    if (overflow == null) {
      overflow = new HashMap<>();
    }
    overflow.put(entry.key, entry);
  }

  /**
   * Fibonacci hashing, the high bits of the hash times 2^32 / phi: keys with nearby hash codes
   * ("k1", "k2") land far apart, which linear probing needs.
   */
  private static int slot(int hash, int shift) {
    return (hash * 0x9E3779B9) >>> shift;
  }
}
