package dev.statekit.stream.internal.threaded;

/** Markers that travel in chunks between records. */
final class Mark {
  private Mark() {}

  /** The watermark of the channel it arrives on. */
  record Watermark(long value) {}

  /** A checkpoint barrier. */
  record Barrier(long checkpointId) {}

  /** The channel has no event time yet ({@link dev.statekit.stream.internal.Output#idle}). */
  static final Object IDLE = new Object();

  /** The channel's input has ended. */
  static final Object END = new Object();
}
