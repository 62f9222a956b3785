package dev.statekit.stream;

/**
 * Processes one record of a keyed stream with access to that key's state.
 *
 * @param <K> the key type
 * @param <T> the input type
 * @param <R> the output type
 */
@FunctionalInterface
public interface KeyedProcessFunction<K, T, R> {
  /** Processes {@code record}, emitting into {@code out}. */
  void process(Record<T> record, KeyedContext<K> context, Collector<R> out) throws Exception;
}
