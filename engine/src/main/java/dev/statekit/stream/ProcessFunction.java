package dev.statekit.stream;

/**
 * Processes one record and may fail; what happens then is the stage's {@link FailurePolicy}. Values
 * collected before a failure are discarded with the record, so a record's outputs are all or
 * nothing.
 *
 * @param <T> the input type
 * @param <R> the output type
 */
@FunctionalInterface
public interface ProcessFunction<T, R> {
  /** Processes {@code record}, emitting into {@code out}. */
  void process(Record<T> record, Collector<R> out) throws Exception;
}
