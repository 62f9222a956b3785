package dev.statekit.stream;

/**
 * Folds the values of a window into an accumulator, one value at a time, and reads the result when
 * the window fires. Session windows merge accumulators with {@link #merge}.
 *
 * @param <T> the input type
 * @param <A> the accumulator type (kept in state: give it a serde for durable backends)
 * @param <R> the result type
 */
public interface AggregateFunction<T, A, R> {
  /** A new, empty accumulator. */
  A createAccumulator();

  /** Adds a value; may update {@code accumulator} in place and return it. */
  A add(T value, A accumulator);

  /** The result of a window. */
  R result(A accumulator);

  /**
   * Merges two accumulators of session windows that came together. Session windows need it: {@link
   * WindowedStream#aggregate} refuses a function that keeps this default.
   */
  default A merge(A a, A b) {
    throw new UnsupportedOperationException(
        getClass().getName() + " must implement merge(a, b) to aggregate session windows");
  }

  /** Counts values. */
  static <T> AggregateFunction<T, Long, Long> count() {
    return new AggregateFunction<>() {
      @Override
      public Long createAccumulator() {
        return 0L;
      }

      @Override
      public Long add(T value, Long accumulator) {
        return accumulator + 1;
      }

      @Override
      public Long result(Long accumulator) {
        return accumulator;
      }

      @Override
      public Long merge(Long a, Long b) {
        return a + b;
      }
    };
  }
}
