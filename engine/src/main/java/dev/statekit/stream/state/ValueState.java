package dev.statekit.stream.state;

/**
 * One value per key (and namespace), for the key the operator is processing.
 *
 * @param <T> the value type
 */
public interface ValueState<T> {
  /** The value, or null if none was set. */
  T value();

  /** Sets the value; null clears it. */
  void update(T value);

  /** Removes the value. */
  void clear();
}
