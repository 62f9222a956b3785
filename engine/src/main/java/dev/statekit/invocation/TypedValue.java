package dev.statekit.invocation;

import java.util.Arrays;
import java.util.Objects;

/**
 * A serialized value and the name of its type, as the engine exchanges them with a transport (the
 * StateFun protocol, the self-hosted runtime). Not for users. The array is not copied: whoever
 * builds one hands the array over and never changes it again.
 */
public final class TypedValue {
  private final String typeName;
  private final byte[] value;

  /** Hands {@code value} over; see the class comment. */
  public TypedValue(String typeName, byte[] value) {
    this.typeName = Objects.requireNonNull(typeName, "typeName");
    this.value = Objects.requireNonNull(value, "value");
  }

  /** The type name, {@code namespace/name}. */
  public String typeName() {
    return typeName;
  }

  /** The bytes themselves (not a copy): read them, never change them. */
  public byte[] value() {
    return value;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof TypedValue
        && typeName.equals(((TypedValue) other).typeName)
        && Arrays.equals(value, ((TypedValue) other).value);
  }

  @Override
  public int hashCode() {
    return 31 * typeName.hashCode() + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return typeName + " (" + value.length + " bytes)";
  }
}
