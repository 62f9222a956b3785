package dev.statekit.protocol;

/**
 * Encoded bytes derived from one or two key objects, remembered by the keys' identity in a small
 * direct-mapped table: the writer's type names, egress names and state names come back as the very
 * same instances answer after answer, so a hit is an identity compare or two and a miss only costs
 * deriving the bytes again. Bounded (a colliding entry overwrites its slot, and a head longer than
 * {@link #MAX_HEAD_LENGTH} is not kept: a name can be as long as a request, when a function answers
 * with the type name it was sent, and a thread would keep a copy per slot) and confined to one
 * thread, like the writer that holds it.
 */
final class HeadMemo {
  private static final int SLOTS = 32;

  /** The longest head kept: names are short, and a long one costs more to keep than to encode. */
  static final int MAX_HEAD_LENGTH = 256;

  private final Object[] keys = new Object[SLOTS];
  private final Object[] seconds = new Object[SLOTS];
  private final byte[][] heads = new byte[SLOTS][];

  /** The bytes remembered for {@code key} itself, or {@code null}. */
  byte[] get(Object key) {
    return get(key, null);
  }

  /** The bytes remembered for the pair {@code key} and {@code second} themselves, or null. */
  byte[] get(Object key, Object second) {
    int slot = slot(key, second);
    return keys[slot] == key && seconds[slot] == second ? heads[slot] : null;
  }

  /** Remembers {@code head} for {@code key}, forgetting what its slot held, unless it is long. */
  byte[] put(Object key, byte[] head) {
    return put(key, null, head);
  }

  /** Remembers {@code head} for the pair, forgetting what its slot held, unless it is long. */
  byte[] put(Object key, Object second, byte[] head) {
    if (head.length > MAX_HEAD_LENGTH) {
      return head;
    }
    int slot = slot(key, second);
    keys[slot] = key;
    seconds[slot] = second;
    heads[slot] = head;
    return head;
  }

  private static int slot(Object key, Object second) {
    int hash = second == null ? key.hashCode() : 31 * key.hashCode() + second.hashCode();
    return hash & (SLOTS - 1);
  }
}
