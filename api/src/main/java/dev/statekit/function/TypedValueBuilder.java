package dev.statekit.function;

import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.util.Objects;

/** The value part of the message and egress builders. */
abstract class TypedValueBuilder<B extends TypedValueBuilder<B>> {
  String typeName;
  byte[] value;

  abstract B self();

  /** An {@code io.statefun.types/string} value. */
  public B withValue(String value) {
    return withCustomType(Types.stringType(), value);
  }

  /** An {@code io.statefun.types/int} value. */
  public B withValue(int value) {
    return withCustomType(Types.integerType(), value);
  }

  /** An {@code io.statefun.types/long} value. */
  public B withValue(long value) {
    return withCustomType(Types.longType(), value);
  }

  /** An {@code io.statefun.types/bool} value. */
  public B withValue(boolean value) {
    return withCustomType(Types.booleanType(), value);
  }

  /** An {@code io.statefun.types/float} value. */
  public B withValue(float value) {
    return withCustomType(Types.floatType(), value);
  }

  /** An {@code io.statefun.types/double} value. */
  public B withValue(double value) {
    return withCustomType(Types.doubleType(), value);
  }

  /** A value of any type (protobuf, JSON, user-defined). */
  public <T> B withCustomType(Type<T> type, T value) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(value, "value");
    this.typeName = type.typeName().asString();
    this.value = type.serialize(value);
    return self();
  }

  /** Bytes already serialized, with the name of their type; the array is copied. */
  public B withRawValue(TypeName typeName, byte[] value) {
    Objects.requireNonNull(typeName, "typeName");
    Objects.requireNonNull(value, "value");
    this.typeName = typeName.asString();
    this.value = value.clone();
    return self();
  }

  /**
   * Checks a value was given; {@code what} and {@code target} name the message in the error (two
   * parts, so a build that succeeds joins no strings).
   */
  void requireValue(String what, Object target) {
    if (typeName == null) {
      throw new IllegalStateException(
          what
              + target
              + " has no value: call withValue(...) or withCustomType(...) before build()");
    }
  }
}
