package dev.statekit.stream;

import dev.statekit.stream.internal.WindowSpec;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import java.util.Objects;

/**
 * A keyed stream grouped into windows, waiting for the function that turns each window into output.
 * Outputs carry the key and the window's last millisecond as timestamp.
 *
 * @param <K> the key type
 * @param <T> the values' type
 */
public final class WindowedStream<K, T> {
  private final DataStream<T> stream;
  private final Serde<Object> keySerde;
  private final Windows windows;
  private final Sink<Object> lateRecords;

  WindowedStream(
      DataStream<T> stream, Serde<Object> keySerde, Windows windows, Sink<Object> lateRecords) {
    this.stream = stream;
    this.keySerde = keySerde;
    this.windows = windows;
    this.lateRecords = lateRecords;
  }

  /**
   * Sends late records (those arriving after every window they belong to has fired) to {@code
   * sink}; they are counted either way.
   */
  public WindowedStream<K, T> lateRecordsTo(Sink<T> sink) {
    Objects.requireNonNull(sink, "sink");
    return new WindowedStream<>(stream, keySerde, windows, DataStream.cast(sink));
  }

  /** Aggregates each window; the accumulator is kept with {@link Serdes#auto()}. */
  public <A, R> DataStream<R> aggregate(AggregateFunction<T, A, R> function) {
    return aggregate(function, DataStream.cast(Serdes.auto()));
  }

  /** Aggregates each window, keeping the accumulator with {@code accumulatorSerde}. */
  public <A, R> DataStream<R> aggregate(
      AggregateFunction<T, A, R> function, Serde<A> accumulatorSerde) {
    return aggregate(function, accumulatorSerde, null);
  }

  /**
   * Aggregates each window and builds the output from key, window and result.
   *
   * @throws IllegalArgumentException for session windows, if {@code function} does not implement
   *     {@link AggregateFunction#merge}
   */
  public <A, R, O> DataStream<O> aggregate(
      AggregateFunction<T, A, R> function,
      Serde<A> accumulatorSerde,
      WindowResult<K, R, O> result) {
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(accumulatorSerde, "accumulatorSerde");
    if (windows.kind() == Windows.Kind.SESSION && !overridesMerge(function)) {
      // Caught here rather than when the first two sessions meet, possibly days into a run.
      throw new IllegalArgumentException(
          function.getClass().getName()
              + " does not implement merge(a, b), which session windows need when two sessions"
              + " come together: implement it, or use process(...) to see each session's values");
    }
    return stream.then(
        new WindowSpec(
            windows,
            DataStream.cast(function),
            DataStream.cast(result),
            null,
            DataStream.cast(accumulatorSerde),
            lateRecords,
            keySerde,
            "window"));
  }

  private static boolean overridesMerge(AggregateFunction<?, ?, ?> function) {
    try {
      return function.getClass().getMethod("merge", Object.class, Object.class).getDeclaringClass()
          != AggregateFunction.class;
    } catch (NoSuchMethodException e) {
      throw new AssertionError("AggregateFunction declares merge(a, b)", e);
    }
  }

  /** Processes each window's values at once; values are kept with {@code valueSerde} meanwhile. */
  public <R> DataStream<R> process(WindowFunction<K, T, R> function, Serde<T> valueSerde) {
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(valueSerde, "valueSerde");
    return stream.then(
        new WindowSpec(
            windows,
            null,
            null,
            DataStream.cast(function),
            DataStream.cast(valueSerde),
            lateRecords,
            keySerde,
            "window"));
  }
}
