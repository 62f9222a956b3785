package dev.statekit.stream;

/**
 * A record a function failed on, with the error, as a dead-letter sink receives it.
 *
 * @param record the input record
 * @param error what the function threw
 * @param operator the label of the operator that failed
 * @param <T> the record's value type
 */
public record DeadLetter<T>(Record<T> record, Throwable error, String operator) {}
