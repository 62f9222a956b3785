package dev.statekit.stream.state;

import java.util.Map;

/**
 * A map per key (and namespace), for the key the operator is processing.
 *
 * @param <K> the map key type
 * @param <V> the map value type
 */
public interface MapState<K, V> {
  /** The value under {@code key}, or null. */
  V get(K key);

  /** Sets the value under {@code key}. */
  void put(K key, V value);

  /** Removes {@code key}. */
  void remove(K key);

  /** True if {@code key} has a value. */
  boolean contains(K key);

  /** A read-only view of the entries. */
  Map<K, V> entries();

  /** Removes every entry. */
  void clear();
}
