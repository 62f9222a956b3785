package dev.statekit.stream;

import dev.statekit.stream.internal.FilterSpec;
import dev.statekit.stream.internal.FlatMapSpec;
import dev.statekit.stream.internal.KeyBySpec;
import dev.statekit.stream.internal.MapSpec;
import dev.statekit.stream.internal.ProcessSpec;
import dev.statekit.stream.internal.WatermarkSpec;
import dev.statekit.stream.serde.Serde;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A stream of records with values of type {@code T}, under construction. Each method returns a new
 * stream with one more operator; {@link #to(Sink)} ends the pipeline. Consecutive operators without
 * state run chained, as direct calls, in the stage before them.
 *
 * @param <T> the values' type
 */
public final class DataStream<T> {
  final Source<Object> source;
  final List<Object> steps;

  DataStream(Source<Object> source, List<Object> steps) {
    this.source = source;
    this.steps = List.copyOf(steps);
  }

  <R> DataStream<R> then(Object step) {
    List<Object> next = new ArrayList<>(steps);
    next.add(step);
    return new DataStream<>(source, next);
  }

  @SuppressWarnings("unchecked")
  static <A, B> A cast(B value) {
    return (A) value;
  }

  /** Transforms each value. */
  public <R> DataStream<R> map(Function<? super T, ? extends R> function) {
    return map("map", function);
  }

  /** Transforms each value; {@code label} names the operator in the graph view. */
  public <R> DataStream<R> map(String label, Function<? super T, ? extends R> function) {
    Objects.requireNonNull(function, "function");
    return then(new MapSpec(cast(function), label, "map"));
  }

  /** Keeps the values that pass {@code predicate}. */
  public DataStream<T> filter(Predicate<? super T> predicate) {
    return filter("filter", predicate);
  }

  /** Keeps the values that pass {@code predicate}; {@code label} names it in the graph view. */
  public DataStream<T> filter(String label, Predicate<? super T> predicate) {
    Objects.requireNonNull(predicate, "predicate");
    return then(new FilterSpec(cast(predicate), label));
  }

  /** Turns each value into zero or more. */
  public <R> DataStream<R> flatMap(FlatMapFunction<? super T, R> function) {
    return flatMap("flatMap", function);
  }

  /** Turns each value into zero or more; {@code label} names it in the graph view. */
  public <R> DataStream<R> flatMap(String label, FlatMapFunction<? super T, R> function) {
    Objects.requireNonNull(function, "function");
    return then(new FlatMapSpec(cast(function), label));
  }

  /** Processes each record with a function that may fail; a failure fails the pipeline. */
  public <R> DataStream<R> process(ProcessFunction<T, R> function) {
    return process("process", function, FailurePolicy.fail());
  }

  /** Processes each record with a function that may fail, handling failures by {@code policy}. */
  public <R> DataStream<R> process(
      String label, ProcessFunction<T, R> function, FailurePolicy<T> policy) {
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(policy, "policy");
    return then(new ProcessSpec(cast(function), cast(policy), label));
  }

  /** Decodes byte values (for sources of raw bytes) into values of a type. */
  public <R> DataStream<R> decode(Serde<R> serde) {
    Objects.requireNonNull(serde, "serde");
    return then(new MapSpec(v -> serde.decode((byte[]) v), "decode", "decode"));
  }

  /** Encodes values into bytes (for sinks of raw bytes). */
  public DataStream<byte[]> encode(Serde<T> serde) {
    Objects.requireNonNull(serde, "serde");
    Serde<Object> s = cast(serde);
    return then(new MapSpec(s::encode, "encode", "encode"));
  }

  /** Assigns event timestamps and watermarks; must come before the first keyBy. */
  public DataStream<T> withWatermarks(WatermarkStrategy<T> strategy) {
    Objects.requireNonNull(strategy, "strategy");
    return then(new WatermarkSpec(cast(strategy)));
  }

  /** Partitions by key over the run's default parallelism. */
  public <K> KeyedStream<K, T> keyBy(Function<? super T, K> selector) {
    return keyBy(selector, 0);
  }

  /** Partitions by key over {@code partitions} workers. */
  public <K> KeyedStream<K, T> keyBy(Function<? super T, K> selector, int partitions) {
    return keyBy(selector, partitions, cast(dev.statekit.stream.serde.AutoSerde.KEYS));
  }

  /**
   * Partitions by key over {@code partitions} workers; {@code keySerde} writes keys to state
   * (needed only for key types {@link dev.statekit.stream.serde.AutoSerde#KEYS}, the default, can't
   * handle). A keyed stage with windows reads its keys back from their serialized form: each must
   * read back equal and written alike, or it is refused at its first record.
   */
  public <K> KeyedStream<K, T> keyBy(
      Function<? super T, K> selector, int partitions, Serde<K> keySerde) {
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(keySerde, "keySerde");
    KeyBySpec spec = new KeyBySpec(cast(selector), partitions, cast(keySerde), "keyBy");
    return new KeyedStream<>(then(spec), cast(keySerde));
  }

  /** Ends the pipeline in {@code sink}. */
  public Pipeline to(Sink<? super T> sink) {
    Objects.requireNonNull(sink, "sink");
    return new Pipeline(source, steps, cast(sink));
  }
}
