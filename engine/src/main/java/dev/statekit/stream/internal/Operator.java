package dev.statekit.stream.internal;

import dev.statekit.stream.Record;

/**
 * A running operator on one worker: receives elements from upstream as direct calls and passes its
 * outputs to {@link #next}, which is the next operator of the chain, an exchange or a sink.
 */
public abstract class Operator implements Output {
  /** Where outputs go. */
  protected Output next;

  public void setNext(Output next) {
    this.next = next;
  }

  /**
   * A record with its key, as a keyed stage receives it: the key travels beside the record so that
   * keying costs no copy of the record. Keyed operators use the key directly; others get the record
   * with its key set.
   */
  public void emitKeyed(Object key, Record<?> record) throws Exception {
    emit(record.key() == key ? record : record.withKey(key));
  }

  /**
   * A keyed record as its parts ({@link RecordParts}): the record {@code Record.at(split, offset,
   * key, value, timestamp)}. An operator that needs only some of them may override this and make no
   * input record at all.
   */
  public void emitKeyedParts(Object key, String split, long offset, Object value, long timestamp)
      throws Exception {
    emitKeyed(key, Record.at(split, offset, key, value, timestamp));
  }

  /** Called once before the first element; stateful operators open their state here. */
  public void open(OperatorContext context) throws Exception {}

  @Override
  public void watermark(long watermark) throws Exception {
    next.watermark(watermark);
  }

  @Override
  public void idle() throws Exception {
    next.idle();
  }

  @Override
  public void barrier(long checkpointId) throws Exception {
    next.barrier(checkpointId);
  }

  @Override
  public void end() throws Exception {
    next.end();
  }

  /** A checkpoint this operator took part in is complete. */
  public void checkpointComplete(long checkpointId) throws Exception {}

  /** Called once when the worker stops, after success or failure. */
  public void close() throws Exception {}

  /** The keys of a chunk the worker is about to process, for a remote state backend to read. */
  public void prefetch(Object[] keys, int from, int to) {}
}
