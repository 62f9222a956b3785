package dev.statekit.types;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.protobuf.Message;
import java.util.Objects;
import java.util.function.Function;

/**
 * The value types: StateFun's built-in primitives (wire compatible with every StateFun SDK),
 * protobuf messages, JSON through Jackson, and user-defined types.
 */
public final class Types {
  private Types() {}

  /** Built on first use, so functions without JSON types don't load Jackson at cold start. */
  private static final class DefaultJson {
    static final ObjectMapper MAPPER = JsonMapper.builder().findAndAddModules().build();
  }

  /**
   * Makes now what JSON types make with their first value (Jackson's reader and writer, and the
   * default mapper): {@code EntryPoint.prime()} calls it before a SnapStart snapshot, so a restored
   * environment's first value of each type finds them made.
   */
  public static void prepareJsonTypes() {
    JsonType.prepareAll();
  }

  /** {@code io.statefun.types/bool}. */
  public static Type<Boolean> booleanType() {
    return BooleanType.INSTANCE;
  }

  /** {@code io.statefun.types/int}. */
  public static Type<Integer> integerType() {
    return IntType.INSTANCE;
  }

  /** {@code io.statefun.types/long}. */
  public static Type<Long> longType() {
    return LongType.INSTANCE;
  }

  /** {@code io.statefun.types/float}. */
  public static Type<Float> floatType() {
    return FloatType.INSTANCE;
  }

  /** {@code io.statefun.types/double}. */
  public static Type<Double> doubleType() {
    return DoubleType.INSTANCE;
  }

  /** {@code io.statefun.types/string} (UTF-8). */
  public static Type<String> stringType() {
    return StringType.INSTANCE;
  }

  /**
   * A protobuf message type, named {@code type.googleapis.com/<full message name>}, whose values
   * are the messages' bytes (not wrapped in an {@code Any}).
   *
   * @param defaultInstance e.g. {@code MyEvent.getDefaultInstance()}
   */
  public static <M extends Message> Type<M> protobuf(M defaultInstance) {
    Objects.requireNonNull(defaultInstance, "defaultInstance");
    return new ProtobufType<>(defaultInstance);
  }

  /**
   * Values of {@code javaType} written as UTF-8 JSON by a default Jackson mapper (with the modules
   * found on the class path, e.g. Java time).
   *
   * @param typeName the name sent with each value, e.g. {@code com.example/Order}
   */
  public static <T> Type<T> json(TypeName typeName, Class<T> javaType) {
    Objects.requireNonNull(typeName, "typeName");
    Objects.requireNonNull(javaType, "javaType");
    // The default mapper is built with the first JSON value, not with the first JSON type.
    return new JsonType<>(
        typeName, () -> DefaultJson.MAPPER, m -> m.constructType(javaType), javaType.getName());
  }

  /** Values of {@code javaType} written as JSON by the given mapper. */
  public static <T> Type<T> json(TypeName typeName, Class<T> javaType, ObjectMapper mapper) {
    Objects.requireNonNull(typeName, "typeName");
    Objects.requireNonNull(javaType, "javaType");
    Objects.requireNonNull(mapper, "mapper");
    return new JsonType<>(
        typeName, () -> mapper, m -> m.constructType(javaType), javaType.getName());
  }

  /**
   * Values of a generic Java type (e.g. {@code List<Order>}) written as JSON by the given mapper;
   * build {@code javaType} with {@code mapper.getTypeFactory()}.
   */
  public static <T> Type<T> json(TypeName typeName, JavaType javaType, ObjectMapper mapper) {
    Objects.requireNonNull(typeName, "typeName");
    Objects.requireNonNull(javaType, "javaType");
    Objects.requireNonNull(mapper, "mapper");
    return new JsonType<>(typeName, javaType, mapper);
  }

  /**
   * A user-defined type from a serializer and a deserializer. Values are treated as mutable
   * (deserialized on each read); see {@link #simpleImmutable} for immutable ones.
   */
  public static <T> Type<T> simple(
      TypeName typeName, Function<? super T, byte[]> serializer, Function<byte[], T> deserializer) {
    return simple(typeName, serializer, deserializer, false);
  }

  /** A user-defined type whose values can't change once built (e.g. records of immutables). */
  public static <T> Type<T> simpleImmutable(
      TypeName typeName, Function<? super T, byte[]> serializer, Function<byte[], T> deserializer) {
    return simple(typeName, serializer, deserializer, true);
  }

  private static <T> Type<T> simple(
      TypeName typeName,
      Function<? super T, byte[]> serializer,
      Function<byte[], T> deserializer,
      boolean immutable) {
    Objects.requireNonNull(typeName, "typeName");
    Objects.requireNonNull(serializer, "serializer");
    Objects.requireNonNull(deserializer, "deserializer");
    return new SimpleType<>(typeName, serializer, deserializer, immutable);
  }
}
