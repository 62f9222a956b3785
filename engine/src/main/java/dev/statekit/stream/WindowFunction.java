package dev.statekit.stream;

import java.util.List;

/**
 * Computes a window's outputs from all of its values at once (they are kept in list state until the
 * window fires).
 *
 * @param <K> the key type
 * @param <T> the input type
 * @param <R> the output type
 */
@FunctionalInterface
public interface WindowFunction<K, T, R> {
  /** Emits the outputs of one window of one key. */
  void process(K key, TimeWindow window, List<T> values, Collector<R> out) throws Exception;
}
