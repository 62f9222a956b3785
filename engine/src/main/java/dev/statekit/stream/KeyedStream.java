package dev.statekit.stream;

import dev.statekit.stream.internal.KeyedProcessSpec;
import dev.statekit.stream.internal.ReduceSpec;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import java.util.List;
import java.util.Objects;
import java.util.function.BinaryOperator;

/**
 * A stream partitioned by key: each key's records go, in order, to one worker, which keeps that
 * key's state.
 *
 * @param <K> the key type
 * @param <T> the values' type
 */
public final class KeyedStream<K, T> {
  private final DataStream<T> stream;
  private final Serde<Object> keySerde;

  KeyedStream(DataStream<T> stream, Serde<Object> keySerde) {
    this.stream = stream;
    this.keySerde = keySerde;
  }

  /**
   * Folds each key's values into a running value and emits it after every record; the running value
   * is kept with {@link Serdes#auto()}.
   */
  public DataStream<T> reduce(BinaryOperator<T> function) {
    return reduce(function, DataStream.cast(Serdes.auto()));
  }

  /** Folds each key's values into a running value kept with {@code serde}. */
  public DataStream<T> reduce(BinaryOperator<T> function, Serde<T> serde) {
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(serde, "serde");
    return stream.then(
        new ReduceSpec(DataStream.cast(function), DataStream.cast(serde), keySerde, "reduce"));
  }

  /** Processes each record with the key's state, declared by {@code states}. */
  public <R> DataStream<R> process(KeyedProcessFunction<K, T, R> function, StateSpec<?>... states) {
    Objects.requireNonNull(function, "function");
    return stream.then(
        new KeyedProcessSpec(DataStream.cast(function), List.of(states), keySerde, "process"));
  }

  /** Groups each key's records into event-time windows. */
  public WindowedStream<K, T> window(Windows windows) {
    Objects.requireNonNull(windows, "windows");
    return new WindowedStream<>(stream, keySerde, windows, null);
  }
}
