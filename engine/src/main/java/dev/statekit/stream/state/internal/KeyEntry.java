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

  /** A view sharing {@code of}'s key, hash and slots (a key just decoded may not have its hash). */
  KeyEntry(KeyEntry of) {
    this.key = of.key;
    this.hash = of.hash;
    this.slots = of.slots;
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

  /**
   * The slots, with the lists and maps of list and map states copied: those are always exactly an
   * {@code ArrayList} or a {@code HashMap} (the handles and the codec make them). A value state's
   * value is the user's object, of the user's type (a JSON map decodes as a {@code LinkedHashMap};
   * a value class may extend {@code ArrayList}): it is shared as every value is, never replaced by
   * a copy of another type or order.
   */
  private static Object[] copyOf(Object[] values) {
    Object[] copy = values.clone();
    for (int i = 0; i < copy.length; i++) {
      Object value = copy[i];
      if (value != null && value.getClass() == java.util.ArrayList.class) {
        copy[i] = new java.util.ArrayList<>((java.util.ArrayList<?>) value);
      } else if (value != null && value.getClass() == HashMap.class) {
        copy[i] = new HashMap<>((HashMap<?, ?>) value);
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
