package dev.statekit.types;

/**
 * A value type: its type name (what travels on the wire beside the bytes) and how its values turn
 * into bytes and back. {@link Types} has the built-in ones; implement this interface for anything
 * else, or use {@link Types#simple}.
 *
 * @param <T> the Java type of the values
 */
public interface Type<T> {
  /** The type name sent with every value of this type. */
  TypeName typeName();

  /** The value's bytes; never called with {@code null}. */
  byte[] serialize(T value);

  /**
   * The value these bytes hold.
   *
   * @throws IllegalArgumentException if the bytes are not a value of this type
   */
  T deserialize(byte[] bytes);

  /**
   * Whether values of this type can't change once built ({@code Integer}, {@code String}, records
   * of such). Returning {@code true} lets a batch keep the deserialized object between invocations;
   * a mutable value is deserialized anew on each read so that changing it without {@code set}
   * changes nothing. The default is {@code false}, which is always safe.
   */
  default boolean immutableValues() {
    return false;
  }
}
