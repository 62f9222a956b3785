package dev.statekit.stream.internal;

import dev.statekit.stream.serde.Serde;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a keyBy selector's answers before they key state. Beside {@link KeyBySpec#usable}, a key's
 * class must say when two keys are equal (a class without {@code equals} is equal only to itself:
 * each record would get a state of its own in memory, while they share one item in the table), and
 * a key must be written alike in every JVM (a {@code Set.of} is not: its order is drawn per JVM).
 * Where a keyed stage reads keys back (its windows' timers keep their keys serialized, and a
 * restored run, or a Lambda batch firing windows of keys it did not see, reads them back), the
 * first key of each class must also read back from its key serde as an equal key written alike: one
 * that does not (a class Jackson cannot construct) would find neither its state nor its windows
 * again, silently.
 */
public final class KeyCheck {
  private final Serde<Object> serde;
  private final boolean readsKeysBack;

  /** Why keys of a class cannot key state, or "" if they can, by class. */
  private final Map<Class<?>, String> checked = new ConcurrentHashMap<>();

  /**
   * Checks keys against the key serde of {@code keyBy}.
   *
   * @param readsKeysBack whether the keyed stage reads keys back from their serialized form
   */
  public KeyCheck(KeyBySpec keyBy, boolean readsKeysBack) {
    this.serde = keyBy.keySerde();
    this.readsKeysBack = readsKeysBack;
  }

  /** Whether {@code key}, a selector's answer, can key state. */
  public boolean accepts(Object key) {
    return key instanceof String
        || (KeyBySpec.usable(key)
            && checked.computeIfAbsent(key.getClass(), t -> whyNot(key)).isEmpty());
  }

  /**
   * The error for a key that is not {@link #accepts accepted}: why, and what to key by instead.
   *
   * @param record the record the selector answered it for
   */
  public IllegalArgumentException refusal(Object key, Object record) {
    if (!KeyBySpec.usable(key)) {
      return KeyBySpec.unusable(key, record);
    }
    return new IllegalArgumentException(
        "The keyBy selector returned "
            + key
            + " ("
            + key.getClass().getName()
            + ") for "
            + record
            + ": "
            + checked.get(key.getClass())
            + ". Key by a String, a number or a record of such fields, or give keyBy(selector,"
            + " partitions, keySerde) a serde that reads back an equal key written alike");
  }

  private String whyNot(Object key) {
    if (!declaresEquals(key.getClass()) && !canonical(key)) {
      return "its class does not say when two keys are equal (it has no equals), so no two"
          + " records would share state in memory, while they share it in the table";
    }
    if ((key instanceof Set<?> || key instanceof Map<?, ?>)
        && key.getClass().getName().startsWith("java.util.ImmutableCollections$")
        // Map.of(k, v) always holds one entry: it is written alike in every JVM.
        && !key.getClass().getName().equals("java.util.ImmutableCollections$Map1")) {
      // Set.of and Map.of hand out their elements in an order drawn for each JVM.
      return "the order it hands out its elements in, and so its serialized form, under which its"
          + " state is kept, changes from one JVM to the next: a restarted run would not find it";
    }
    if (!readsKeysBack) {
      return "";
    }
    byte[] bytes;
    Object back;
    try {
      bytes = serde.encode(key);
    } catch (RuntimeException e) {
      return "its key serde cannot write it (" + e.getMessage() + ")";
    }
    try {
      back = serde.decode(bytes);
    } catch (RuntimeException e) {
      return "its key serde cannot read it back ("
          + e.getMessage()
          + "), and a window's timer keeps its key so: a restored run could not fire its windows";
    }
    if (!key.equals(back)) {
      return "read back from its key serde it is "
          + back
          + (back == null ? "" : " (" + back.getClass().getName() + ")")
          + ", which it is not equal to, and a window's timer keeps its key so: a restored run"
          + " would not find its windows";
    }
    if (!Arrays.equals(serde.encode(back), bytes)) {
      return "read back from its key serde it is a "
          + back.getClass().getName()
          + ", which the serde writes otherwise, and a window's timer keeps its key so: a restored"
          + " run would not find its windows";
    }
    return "";
  }

  /**
   * Whether keys of a class without equals are canonical instances (Currency, Class): its key serde
   * reads the key back as the very same instance.
   */
  private boolean canonical(Object key) {
    try {
      return serde.decode(serde.encode(key)) == key;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static boolean declaresEquals(Class<?> type) {
    try {
      return type.getMethod("equals", Object.class).getDeclaringClass() != Object.class;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }
}
