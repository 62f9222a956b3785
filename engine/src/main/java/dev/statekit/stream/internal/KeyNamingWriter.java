package dev.statekit.stream.internal;

import dev.statekit.stream.serde.Serde;

/**
 * A sink writer that names its records by their keys, and so must name two keys apart exactly when
 * the keyed stage it runs in keeps them apart: by the bytes that stage's key serde writes, not by
 * their {@code toString} (two lists can print alike).
 */
public interface KeyNamingWriter {
  /**
   * Called once, as the writer is opened: how the records' keys are serialized, or null in a stage
   * that is not keyed.
   */
  void keysWrittenBy(Serde<Object> keySerde);
}
