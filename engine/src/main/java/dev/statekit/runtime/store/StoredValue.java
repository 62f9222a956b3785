package dev.statekit.runtime.store;

import java.util.Arrays;
import java.util.Objects;

/**
 * One persisted value of an address as a store keeps it: the value's type name, its bytes, and the
 * moment it expires. The array is not copied: whoever builds one hands it over and never changes
 * it.
 */
public final class StoredValue {
  private final String typeName;
  private final byte[] bytes;
  private final long expiresAtMillis;

  /**
   * A stored value.
   *
   * @param expiresAtMillis epoch milliseconds from which the value counts as absent, 0 for never
   */
  public StoredValue(String typeName, byte[] bytes, long expiresAtMillis) {
    this.typeName = Objects.requireNonNull(typeName, "typeName");
    this.bytes = Objects.requireNonNull(bytes, "bytes");
    if (expiresAtMillis < 0) {
      throw new IllegalArgumentException("expiresAtMillis must be 0 (never) or an epoch time");
    }
    this.expiresAtMillis = expiresAtMillis;
  }

  /** The value's type name, {@code namespace/name}. */
  public String typeName() {
    return typeName;
  }

  /** The bytes themselves (not a copy): read them, never change them. */
  public byte[] bytes() {
    return bytes;
  }

  /** Epoch milliseconds from which the value counts as absent; 0 if it never expires. */
  public long expiresAtMillis() {
    return expiresAtMillis;
  }

  /** Whether the value counts as absent at {@code nowMillis}. */
  public boolean isExpiredAt(long nowMillis) {
    return expiresAtMillis != 0 && nowMillis >= expiresAtMillis;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof StoredValue
        && typeName.equals(((StoredValue) other).typeName)
        && expiresAtMillis == ((StoredValue) other).expiresAtMillis
        && Arrays.equals(bytes, ((StoredValue) other).bytes);
  }

  @Override
  public int hashCode() {
    return Objects.hash(typeName, expiresAtMillis) * 31 + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return typeName
        + " ("
        + bytes.length
        + " bytes"
        + (expiresAtMillis == 0 ? "" : ", expires at " + expiresAtMillis)
        + ")";
  }
}
