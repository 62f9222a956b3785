package dev.statekit.protocol;

/**
 * Encoded bytes derived from a key object, remembered by the key's identity in a small
 * direct-mapped table: the writer's type names, egress names and state names come back as the very
 * same instances answer after answer, so a hit is one identity compare and a miss only costs
 * deriving the bytes again. Bounded (a colliding key overwrites its slot) and confined to one
 * thread, like the writer that holds it.
 */
final class HeadMemo {
  private static final int SLOTS = 32;

  private final Object[] keys = new Object[SLOTS];
  private final byte[][] heads = new byte[SLOTS][];

  /** The bytes remembered for {@code key} itself, or {@code null}. */
  byte[] get(Object key) {
    int slot = key.hashCode() & (SLOTS - 1);
    return keys[slot] == key ? heads[slot] : null;
  }

  /** Remembers {@code head} for {@code key}, forgetting what its slot held. */
  byte[] put(Object key, byte[] head) {
    int slot = key.hashCode() & (SLOTS - 1);
    keys[slot] = key;
    heads[slot] = head;
    return head;
  }
}
