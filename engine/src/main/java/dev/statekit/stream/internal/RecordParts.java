package dev.statekit.stream.internal;

/**
 * Takes a source's records as their parts instead of as {@code Record} objects. A reader of the
 * engine's own sources hands its records this way when the consumer it polls into implements this
 * interface: where nothing runs between the source and a {@code keyBy}, the parts travel to the
 * keyed worker in the chunk's arrays and the worker makes the record, so the source thread makes no
 * object per record but the value. The record is the one {@code Record.at(split, offset, null,
 * value, timestamp)} would have made.
 */
public interface RecordParts {
  /** One record read from {@code split} at the numeric {@code offset}, without headers. */
  void accept(String split, long offset, Object value, long timestamp);
}
