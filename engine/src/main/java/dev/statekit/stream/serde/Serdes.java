package dev.statekit.stream.serde;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** The serializers pipelines use: bytes, strings, primitives, JSON (Jackson) and protobuf. */
public final class Serdes {
  private static final ObjectMapper MAPPER = new ObjectMapper().findAndRegisterModules();

  private Serdes() {}

  /** Byte arrays as they are. */
  public static Serde<byte[]> bytes() {
    return cast(Simple.BYTES);
  }

  /** Strings as UTF-8. */
  public static Serde<String> string() {
    return cast(Simple.STRING);
  }

  /** Longs as 8 big-endian bytes. */
  public static Serde<Long> longs() {
    return cast(Simple.LONG);
  }

  /** Integers as 4 big-endian bytes. */
  public static Serde<Integer> ints() {
    return cast(Simple.INT);
  }

  /** Doubles as 8 big-endian bytes (IEEE 754). */
  public static Serde<Double> doubles() {
    return cast(Simple.DOUBLE);
  }

  /** Values of a class as JSON, with Jackson (records, beans, collections of those). */
  public static <T> Serde<T> json(Class<T> type) {
    Objects.requireNonNull(type, "type");
    return json(MAPPER.constructType(type));
  }

  /** Values of a generic type as JSON, e.g. {@code json(new TypeReference<List<Order>>() {})}. */
  public static <T> Serde<T> json(TypeReference<T> type) {
    Objects.requireNonNull(type, "type");
    return json(MAPPER.constructType(type));
  }

  private static <T> Serde<T> json(JavaType type) {
    return new Serde<>() {
      @Override
      public byte[] encode(T value) {
        try {
          return MAPPER.writeValueAsBytes(value);
        } catch (IOException e) {
          throw new SerdeException("Cannot write " + type + " as JSON: " + e.getMessage(), e);
        }
      }

      @Override
      public T decode(byte[] bytes) {
        try {
          return MAPPER.readValue(bytes, type);
        } catch (IOException e) {
          throw new SerdeException("Bytes are not JSON for " + type + ": " + e.getMessage(), e);
        }
      }
    };
  }

  /**
   * Protobuf messages, given the message's parser (for example {@code Order.parser()}). Protobuf
   * stays behind this serde: pipeline code handles the message classes only.
   */
  public static <M extends MessageLite> Serde<M> protobuf(Parser<M> parser) {
    Objects.requireNonNull(parser, "parser");
    return new Serde<>() {
      @Override
      public byte[] encode(M value) {
        return value.toByteArray();
      }

      @Override
      public M decode(byte[] bytes) {
        try {
          return parser.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
          throw new SerdeException("Bytes are not a valid protobuf message: " + e.getMessage(), e);
        }
      }
    };
  }

  /**
   * The default for state and keys when none is given: strings, longs, integers, doubles, booleans
   * and byte arrays natively, anything else as JSON tagged with its class name (so the class must
   * be readable by Jackson, e.g. a record). Give an explicit serde for generic types.
   */
  public static <T> Serde<T> auto() {
    return cast(AutoSerde.INSTANCE);
  }

  @SuppressWarnings("unchecked")
  private static <T> Serde<T> cast(Serde<?> serde) {
    return (Serde<T>) serde;
  }

  private enum Simple implements Serde<Object> {
    BYTES {
      @Override
      public byte[] encode(Object value) {
        return (byte[]) value;
      }

      @Override
      public Object decode(byte[] bytes) {
        return bytes;
      }
    },
    STRING {
      @Override
      public byte[] encode(Object value) {
        return ((String) value).getBytes(StandardCharsets.UTF_8);
      }

      @Override
      public Object decode(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
      }
    },
    LONG {
      @Override
      public byte[] encode(Object value) {
        return ByteBuffer.allocate(8).putLong((Long) value).array();
      }

      @Override
      public Object decode(byte[] bytes) {
        return ByteBuffer.wrap(exactly(bytes, 8, "long")).getLong();
      }
    },
    INT {
      @Override
      public byte[] encode(Object value) {
        return ByteBuffer.allocate(4).putInt((Integer) value).array();
      }

      @Override
      public Object decode(byte[] bytes) {
        return ByteBuffer.wrap(exactly(bytes, 4, "int")).getInt();
      }
    },
    DOUBLE {
      @Override
      public byte[] encode(Object value) {
        return ByteBuffer.allocate(8).putDouble((Double) value).array();
      }

      @Override
      public Object decode(byte[] bytes) {
        return ByteBuffer.wrap(exactly(bytes, 8, "double")).getDouble();
      }
    };

    private static byte[] exactly(byte[] bytes, int length, String type) {
      if (bytes.length != length) {
        throw new SerdeException(
            "A " + type + " is " + length + " bytes, got " + bytes.length + ": wrong serde?");
      }
      return bytes;
    }
  }
}
