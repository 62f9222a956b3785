package dev.statekit.stream;

/**
 * One worker's connection to a sink. All methods are called from that worker's thread.
 *
 * @param <T> the records' value type
 */
public interface SinkWriter<T> extends AutoCloseable {
  /** Writes one record. */
  void write(Record<T> record) throws Exception;

  /**
   * A checkpoint barrier reached this writer: everything written so far belongs to checkpoint
   * {@code checkpointId}; prepare it (flush, stage) so that it can be committed later.
   */
  default void checkpoint(long checkpointId) throws Exception {}

  /** Every part of checkpoint {@code checkpointId} is stored: commit what was prepared for it. */
  default void checkpointComplete(long checkpointId) throws Exception {}

  @Override
  default void close() throws Exception {}
}
