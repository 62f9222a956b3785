package dev.statekit.stream.internal;

import dev.statekit.stream.Record;

/** What flows down a chain: records, watermarks, checkpoint barriers and the end of input. */
public interface Output {
  /** One record. */
  void emit(Record<?> record) throws Exception;

  /** Event time has reached {@code watermark}: no record at or before it is expected. */
  void watermark(long watermark) throws Exception;

  /** Checkpoint {@code checkpointId}: snapshot between the records before and after it. */
  void barrier(long checkpointId) throws Exception;

  /** No more input; everything is flushed. */
  void end() throws Exception;
}
