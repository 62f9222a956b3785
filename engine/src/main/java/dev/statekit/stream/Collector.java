package dev.statekit.stream;

/**
 * Receives what a function emits. A value collected this way keeps the input record's key,
 * timestamp, headers and position.
 *
 * @param <T> the emitted value type
 */
@FunctionalInterface
public interface Collector<T> {
  /** Emits one value. */
  void collect(T value);
}
