package dev.statekit.function;

import dev.statekit.types.TypeName;
import java.util.Objects;

/**
 * One function instance: its function type and an id, written {@code namespace/type/id}. Each
 * address has its own persisted values and sees its messages one at a time.
 */
public final class Address {
  private final TypeName type;
  private final String id;

  private Address(TypeName type, String id) {
    this.type = type;
    this.id = id;
  }

  /**
   * The instance {@code id} of function type {@code type}.
   *
   * @throws IllegalArgumentException if the id is empty
   */
  public static Address of(TypeName type, String id) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) {
      throw new IllegalArgumentException(
          "An address id must not be empty (function type " + type + "); use e.g. a user name");
    }
    return new Address(type, id);
  }

  /** The function type. */
  public TypeName type() {
    return type;
  }

  /** The instance id within the function type. */
  public String id() {
    return id;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof Address)) {
      return false;
    }
    Address that = (Address) other;
    return type.equals(that.type) && id.equals(that.id);
  }

  @Override
  public int hashCode() {
    return 31 * type.hashCode() + id.hashCode();
  }

  /** {@code namespace/type/id}. */
  @Override
  public String toString() {
    return type + "/" + id;
  }
}
