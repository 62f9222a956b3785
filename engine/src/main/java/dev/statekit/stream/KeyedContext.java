package dev.statekit.stream;

/**
 * What a keyed process function sees besides the record: the key, and state scoped to it.
 *
 * @param <K> the key type
 */
public interface KeyedContext<K> {
  /** The current record's key. */
  K key();

  /**
   * The handle of a state declared when the function was added to the pipeline.
   *
   * @throws IllegalArgumentException if {@code spec} was not declared
   */
  <S> S state(dev.statekit.stream.state.StateSpec<S> spec);
}
