package dev.statekit.stream.internal;

import dev.statekit.stream.serde.Serde;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a keyBy selector's answers before they key state. Beside {@link KeyBySpec#usable}, the
 * first key of each class must read back from its key serde as an equal key written alike: a key's
 * state and its windows' timers are kept under its serialized form, and a restored run reads the
 * key back from its timers, so a key that does not survive the trip (a {@code List.of}, which reads
 * back as an {@code ArrayList} written under another class name; a class Jackson cannot construct;
 * a class equal only to itself) loses its state and windows after a restore, silently.
 */
public final class KeyCheck {
  private final Serde<Object> serde;

  /** Why keys of a class cannot key state, or "" if they can, by class. */
  private final Map<Class<?>, String> checked = new ConcurrentHashMap<>();

  /** Checks keys against the key serde of {@code keyBy}. */
  public KeyCheck(KeyBySpec keyBy) {
    this.serde = keyBy.keySerde();
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
            + ". A key's state and window timers are kept under its serialized form, and a"
            + " restored run reads the key back from it: this key would lose them. Key by a"
            + " String, a number or a record of such fields, or give keyBy(selector, partitions,"
            + " keySerde) a serde that reads back an equal key written alike");
  }

  private String whyNot(Object key) {
    if ((key instanceof Set<?> || key instanceof Map<?, ?>)
        && key.getClass().getName().startsWith("java.util.ImmutableCollections$")) {
      // Set.of and Map.of hand out their elements in an order drawn for each JVM.
      return "the order it hands out its elements in, and so its serialized form, changes from one"
          + " JVM to the next";
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
      return "its key serde cannot read it back (" + e.getMessage() + ")";
    }
    if (!key.equals(back)) {
      return "read back from its key serde it is "
          + back
          + (back == null ? "" : " (" + back.getClass().getName() + ")")
          + ", which it is not equal to";
    }
    if (!Arrays.equals(serde.encode(back), bytes)) {
      return "read back from its key serde it is a "
          + back.getClass().getName()
          + ", which the serde writes otherwise";
    }
    return "";
  }
}
