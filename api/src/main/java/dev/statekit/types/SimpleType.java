package dev.statekit.types;

import java.util.function.Function;

/** A user-defined type from two functions. */
final class SimpleType<T> implements Type<T> {
  private final TypeName typeName;
  private final Function<? super T, byte[]> serializer;
  private final Function<byte[], ? extends T> deserializer;
  private final boolean immutableValues;

  SimpleType(
      TypeName typeName,
      Function<? super T, byte[]> serializer,
      Function<byte[], ? extends T> deserializer,
      boolean immutableValues) {
    this.typeName = typeName;
    this.serializer = serializer;
    this.deserializer = deserializer;
    this.immutableValues = immutableValues;
  }

  @Override
  public TypeName typeName() {
    return typeName;
  }

  @Override
  public byte[] serialize(T value) {
    byte[] bytes = serializer.apply(value);
    if (bytes == null) {
      throw new IllegalStateException("The serializer of " + typeName + " returned null bytes");
    }
    return bytes;
  }

  @Override
  public T deserialize(byte[] bytes) {
    return deserializer.apply(bytes);
  }

  @Override
  public boolean immutableValues() {
    return immutableValues;
  }

  @Override
  public String toString() {
    return typeName.toString();
  }
}
