package dev.statekit.stream.internal;

import dev.statekit.stream.serde.Serde;
import java.util.Arrays;

/**
 * Stable routing of keys to partitions: the same key goes to the same partition in every run and
 * JVM, so restored state and timers meet their keys again. Strings, boxed numbers and enums hash by
 * value as the JDK specifies; other keys by their serialized bytes.
 */
public final class Routing {
  private final int partitions;
  private final Serde<Object> keySerde;

  /** Routing over {@code partitions} partitions. */
  public Routing(int partitions, Serde<Object> keySerde) {
    this.partitions = partitions;
    this.keySerde = keySerde;
  }

  /** How many partitions. */
  public int partitions() {
    return partitions;
  }

  /** How keys are serialized. */
  public Serde<Object> keySerde() {
    return keySerde;
  }

  /** The partition of {@code key}. */
  public int partition(Object key) {
    if (partitions == 1) {
      return 0;
    }
    return Math.floorMod(mix(stableHash(key)), partitions);
  }

  private int stableHash(Object key) {
    if (key instanceof String
        || key instanceof Long
        || key instanceof Integer
        || key instanceof Short
        || key instanceof Byte
        || key instanceof Character
        || key instanceof Boolean) {
      return key.hashCode();
    }
    if (key instanceof Enum<?> e) {
      return e.name().hashCode();
    }
    return Arrays.hashCode(keySerde.encode(key));
  }

  /** Murmur3's finalizer: spreads nearby hash codes over all partitions. */
  private static int mix(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
