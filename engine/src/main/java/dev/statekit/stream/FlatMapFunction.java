package dev.statekit.stream;

/**
 * Turns one value into zero or more.
 *
 * @param <T> the input type
 * @param <R> the output type
 */
@FunctionalInterface
public interface FlatMapFunction<T, R> {
  /** Emits the outputs of {@code value} into {@code out}. */
  void flatMap(T value, Collector<R> out);
}
