package dev.statekit.function;

import dev.statekit.function.spi.Payloads;
import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.util.Arrays;

/** A value with its type name, as messages and egress records carry it, read by type. */
abstract class TypedPayload {
  static {
    Payloads.install(new ZeroCopyAccess());
  }

  private final String typeName;
  private final byte[] value;
  private TypeName parsedTypeName;

  TypedPayload(String typeName, byte[] value) {
    this.typeName = typeName;
    this.value = value;
  }

  /** The name of the value's type. */
  public TypeName valueTypeName() {
    TypeName parsed = parsedTypeName;
    if (parsed == null) {
      parsed = TypeName.parse(typeName);
      parsedTypeName = parsed;
    }
    return parsed;
  }

  /** Whether the value is of this type (its type name matches). */
  public boolean is(Type<?> type) {
    return typeName.equals(type.typeName().asString());
  }

  /**
   * The value, read as {@code type}.
   *
   * @throws IllegalStateException if the value is of another type
   * @throws IllegalArgumentException if its bytes are not a value of the type
   */
  public <T> T as(Type<T> type) {
    if (!is(type)) {
      throw new IllegalStateException(
          "The value is a "
              + typeName
              + ", not a "
              + type.typeName()
              + "; check its type with is(...) or valueTypeName() first");
    }
    return type.deserialize(value);
  }

  /** Whether the value is an {@code io.statefun.types/string}. */
  public boolean isUtf8String() {
    return is(Types.stringType());
  }

  /** The value as an {@code io.statefun.types/string}. */
  public String asUtf8String() {
    return as(Types.stringType());
  }

  /** Whether the value is an {@code io.statefun.types/int}. */
  public boolean isInt() {
    return is(Types.integerType());
  }

  /** The value as an {@code io.statefun.types/int}. */
  public int asInt() {
    return as(Types.integerType());
  }

  /** Whether the value is an {@code io.statefun.types/long}. */
  public boolean isLong() {
    return is(Types.longType());
  }

  /** The value as an {@code io.statefun.types/long}. */
  public long asLong() {
    return as(Types.longType());
  }

  /** Whether the value is an {@code io.statefun.types/bool}. */
  public boolean isBoolean() {
    return is(Types.booleanType());
  }

  /** The value as an {@code io.statefun.types/bool}. */
  public boolean asBoolean() {
    return as(Types.booleanType());
  }

  /** Whether the value is an {@code io.statefun.types/float}. */
  public boolean isFloat() {
    return is(Types.floatType());
  }

  /** The value as an {@code io.statefun.types/float}. */
  public float asFloat() {
    return as(Types.floatType());
  }

  /** Whether the value is an {@code io.statefun.types/double}. */
  public boolean isDouble() {
    return is(Types.doubleType());
  }

  /** The value as an {@code io.statefun.types/double}. */
  public double asDouble() {
    return as(Types.doubleType());
  }

  /** A copy of the value's bytes. */
  public byte[] rawValue() {
    return value.clone();
  }

  /** The type name as sent on the wire, without parsing it. */
  String typeNameString() {
    return typeName;
  }

  /** The bytes themselves, for the package's own use: never handed out. */
  byte[] bytes() {
    return value;
  }

  boolean samePayload(TypedPayload other) {
    return typeName.equals(other.typeName) && Arrays.equals(value, other.value);
  }

  int payloadHash() {
    return 31 * typeName.hashCode() + Arrays.hashCode(value);
  }

  String describeValue() {
    if (isUtf8String()) {
      try {
        return '"' + asUtf8String() + '"';
      } catch (IllegalArgumentException e) {
        // fall through to the generic description
      }
    }
    return typeName + " (" + value.length + " bytes)";
  }

  /** The transports' way to messages' bytes, without the public API's copies. */
  private static final class ZeroCopyAccess implements Payloads.Access {
    @Override
    public Message message(Address target, String typeName, byte[] value) {
      return new Message(target, typeName, value);
    }

    @Override
    public byte[] bytes(Message message) {
      return message.bytes();
    }

    @Override
    public byte[] bytes(EgressMessage message) {
      return message.bytes();
    }

    @Override
    public String typeName(Message message) {
      return message.typeNameString();
    }

    @Override
    public String typeName(EgressMessage message) {
      return message.typeNameString();
    }
  }
}
