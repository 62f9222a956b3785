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

  KeyEntry(Object key, int specs) {
    this.key = key;
    this.hash = key.hashCode();
    this.slots = new Object[specs];
  }

  Object[] space(Object namespace, boolean create) {
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
