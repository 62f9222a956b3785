package dev.statekit.stream.state;

import java.util.List;

/**
 * A list per key (and namespace), for the key the operator is processing.
 *
 * @param <T> the element type
 */
public interface ListState<T> {
  /** The elements in insertion order (empty if none); the list is a read-only view. */
  List<T> get();

  /** Appends an element. */
  void add(T value);

  /** Replaces the elements. */
  void update(List<T> values);

  /** Removes every element. */
  void clear();
}
