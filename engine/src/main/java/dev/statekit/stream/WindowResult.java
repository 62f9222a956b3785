package dev.statekit.stream;

/**
 * Builds a window's output from its key, its bounds and the aggregate's result.
 *
 * @param <K> the key type
 * @param <R> the aggregate's result type
 * @param <O> the output type
 */
@FunctionalInterface
public interface WindowResult<K, R, O> {
  /** The output for one window of one key. */
  O apply(K key, TimeWindow window, R result);
}
