package dev.statekit.stream.state.internal;

import java.util.HashMap;

/** One key's working state, and what the table holds for it. */
final class KeyEntry {
  final Object key;

  /** The key's hash code, kept for {@link KeyEntryMap}. */
  final int hash;

  /** The states without namespace, by spec index. */
  Object[] slots;

  /** The states per namespace (windows), created on first use. */
  HashMap<Object, Object[]> spaces;

  boolean dirty;

  /** The version a restore would read now, and its bytes (the previous slot of the next write). */
  long validVersion;

  byte[] validBytes;

  /** A version written at a checkpoint not yet complete, 0 if none. */
  long pendingVersion;

  byte[] pendingBytes;

  /**
   * The slots and spaces are another holder's, lent to read ({@link DecodedState#borrow}): copy
   * them before changing any ({@link #own}).
   */
  boolean borrowed;

  KeyEntry(Object key, int specs) {
    this.key = key;
    this.hash = key.hashCode();
    this.slots = new Object[specs];
  }

  KeyEntry(Object key, Object[] slots) {
    this.key = key;
    this.hash = key.hashCode();
    this.slots = slots;
  }

  /**
   * Makes a borrowed entry's state its own before it changes: the slots, the spaces, and the lists
   * and maps that list and map states change in place.
   */
  void own() {
    if (!borrowed) {
      return;
    }
    slots = copyOf(slots);
    if (spaces != null) {
      HashMap<Object, Object[]> own = new HashMap<>(spaces.size() * 2);
      spaces.forEach((namespace, space) -> own.put(namespace, copyOf(space)));
      spaces = own;
    }
    borrowed = false;
  }

  private static Object[] copyOf(Object[] values) {
    Object[] copy = values.clone();
    for (int i = 0; i < copy.length; i++) {
      if (copy[i] instanceof java.util.ArrayList<?> list) {
        copy[i] = new java.util.ArrayList<>(list);
      } else if (copy[i] instanceof HashMap<?, ?> map) {
        copy[i] = new HashMap<>(map);
      }
    }
    return copy;
  }

  Object[] space(Object namespace, boolean create) {
    if (create) {
      own();
    }
    if (spaces == null) {
      if (!create) {
        return null;
      }
      spaces = new HashMap<>(4);
    }
    Object[] space = spaces.get(namespace);
    if (space == null && create) {
      space = new Object[slots.length];
      spaces.put(namespace, space);
    }
    return space;
  }

  boolean isEmpty() {
    if (spaces != null) {
      for (Object[] space : spaces.values()) {
        if (!allNull(space)) {
          return false;
        }
      }
    }
    return allNull(slots);
  }

  /** Drops namespaces whose states are all cleared. */
  void compact() {
    own();
    if (spaces != null) {
      spaces.values().removeIf(KeyEntry::allNull);
      if (spaces.isEmpty()) {
        spaces = null;
      }
    }
  }

  static boolean allNull(Object[] values) {
    for (Object value : values) {
      if (value != null) {
        return false;
      }
    }
    return true;
  }
}
