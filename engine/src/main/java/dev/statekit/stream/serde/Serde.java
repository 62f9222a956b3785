package dev.statekit.stream.serde;

/**
 * Turns values of one Java type into bytes and back: used where a pipeline meets bytes (sources and
 * sinks that carry byte arrays) and where state leaves the heap (checkpoints, the DynamoDB
 * backend). {@link Serdes} has the usual ones: JSON, protobuf, bytes, strings and primitives.
 *
 * @param <T> the value type
 */
public interface Serde<T> {
  /** Encodes a value; never returns null. */
  byte[] encode(T value);

  /**
   * Decodes bytes written by {@link #encode}.
   *
   * @throws SerdeException if the bytes are not a valid encoding
   */
  T decode(byte[] bytes);
}
