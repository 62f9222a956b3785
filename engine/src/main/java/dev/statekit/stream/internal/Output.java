package dev.statekit.stream.internal;

import dev.statekit.stream.Record;

/** What flows down a chain: records, watermarks, checkpoint barriers and the end of input. */
public interface Output {
  /** One record. */
  void emit(Record<?> record) throws Exception;

  /** Event time has reached {@code watermark}: no record at or before it is expected. */
  void watermark(long watermark) throws Exception;

  /**
   * The input has handed out no record yet, for its idle timeout: it has no event time to hold the
   * others back with, so the channels it reaches leave it out of their least watermark until its
   * next one (a reader of an empty shard must not keep every window open).
   */
  default void idle() throws Exception {}

  /** Checkpoint {@code checkpointId}: snapshot between the records before and after it. */
  void barrier(long checkpointId) throws Exception;

  /** No more input; everything is flushed. */
  void end() throws Exception;
}
