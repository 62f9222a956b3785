package dev.statekit.stream.serde;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The default serde: a one-byte tag, then the value. Common types are written natively; others as
 * JSON after their class name, so decoding needs no type given.
 */
public enum AutoSerde implements Serde<Object> {
  /** For values: collections read back as mutable ones ({@code ArrayList}, ...). */
  INSTANCE(false),

  /**
   * For keys, keyBy's default: written alike, and a collection made by {@code List.of}, {@code
   * Set.of}, {@code Map.of} or {@code Stream.toList()} reads back as one of the class it was, so a
   * key read back from a window's timer is written as it was, and finds its state.
   */
  KEYS(true);

  private final boolean keys;

  AutoSerde(boolean keys) {
    this.keys = keys;
  }

  private static final ObjectMapper MAPPER = new ObjectMapper().findAndRegisterModules();
  private static final byte NULL = 0;
  private static final byte STRING = 1;
  private static final byte LONG = 2;
  private static final byte INT = 3;
  private static final byte DOUBLE = 4;
  private static final byte BOOLEAN = 5;
  private static final byte BYTES = 6;
  private static final byte JSON = 7;

  @Override
  public byte[] encode(Object value) {
    if (value == null) {
      return new byte[] {NULL};
    }
    if (value instanceof String s) {
      return tagged(STRING, s.getBytes(StandardCharsets.UTF_8));
    }
    if (value instanceof Long l) {
      return ByteBuffer.allocate(9).put(LONG).putLong(l).array();
    }
    if (value instanceof Integer i) {
      return ByteBuffer.allocate(5).put(INT).putInt(i).array();
    }
    if (value instanceof Double d) {
      return ByteBuffer.allocate(9).put(DOUBLE).putDouble(d).array();
    }
    if (value instanceof Boolean b) {
      return new byte[] {BOOLEAN, (byte) (b ? 1 : 0)};
    }
    if (value instanceof byte[] bytes) {
      return tagged(BYTES, bytes);
    }
    try {
      byte[] name = value.getClass().getName().getBytes(StandardCharsets.UTF_8);
      byte[] json = MAPPER.writeValueAsBytes(value);
      return ByteBuffer.allocate(1 + 2 + name.length + json.length)
          .put(JSON)
          .putShort((short) name.length)
          .put(name)
          .put(json)
          .array();
    } catch (IOException e) {
      throw new SerdeException(
          "Cannot write "
              + value.getClass().getName()
              + " as JSON ("
              + e.getMessage()
              + "); give this state or key an explicit serde from Serdes",
          e);
    }
  }

  @Override
  public Object decode(byte[] bytes) {
    if (bytes.length == 0) {
      throw new SerdeException("Empty bytes are not a value written by Serdes.auto()");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
    switch (bytes[0]) {
      case NULL:
        return null;
      case STRING:
        return new String(bytes, 1, bytes.length - 1, StandardCharsets.UTF_8);
      case LONG:
        return in.getLong();
      case INT:
        return in.getInt();
      case DOUBLE:
        return in.getDouble();
      case BOOLEAN:
        return bytes[1] != 0;
      case BYTES:
        return Arrays.copyOfRange(bytes, 1, bytes.length);
      case JSON:
        return json(bytes, in);
      default:
        throw new SerdeException("Unknown tag " + bytes[0] + ": not written by Serdes.auto()");
    }
  }

  private Object json(byte[] bytes, ByteBuffer in) {
    int nameLength = in.getShort();
    String name = new String(bytes, 3, nameLength, StandardCharsets.UTF_8);
    try {
      Class<?> type = Class.forName(name, false, Thread.currentThread().getContextClassLoader());
      int start = 3 + nameLength;
      Object value = MAPPER.readValue(bytes, start, bytes.length - start, type);
      return keys ? asWritten(name, value) : value;
    } catch (ClassNotFoundException | IOException | RuntimeException e) {
      throw new SerdeException("Cannot read a " + name + " written by Serdes.auto(): " + e, e);
    }
  }

  /**
   * A collection written as one of {@code List.of}, {@code Set.of}, {@code Map.of} or {@code
   * Stream.toList()}'s, which JSON reads back as a mutable one, of its class again: those choose
   * their class by size ({@code List12} for one or two elements, {@code ListN} otherwise, and
   * always for {@code Stream.toList()}, which also takes nulls), and the class is written with the
   * value.
   */
  private static Object asWritten(String name, Object value) {
    if (!name.startsWith(IMMUTABLE_COLLECTIONS)) {
      return value;
    }
    if (value instanceof java.util.List<?> list) {
      return name.endsWith("$ListN") ? list.stream().toList() : java.util.List.copyOf(list);
    }
    if (value instanceof java.util.Set<?> set) {
      return java.util.Set.copyOf(set);
    }
    if (value instanceof java.util.Map<?, ?> map) {
      return java.util.Map.copyOf(map);
    }
    return value;
  }

  private static final String IMMUTABLE_COLLECTIONS = "java.util.ImmutableCollections$";

  private static byte[] tagged(byte tag, byte[] body) {
    byte[] out = new byte[body.length + 1];
    out[0] = tag;
    System.arraycopy(body, 0, out, 1, body.length);
    return out;
  }
}
