package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.google.protobuf.StringValue;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.SerdeException;
import dev.statekit.stream.serde.Serdes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SerdesTest {
  record Point(int x, String label) {}

  private static <T> T roundTrip(Serde<T> serde, T value) {
    return serde.decode(serde.encode(value));
  }

  @Test
  void primitivesStringsAndBytesRoundTrip() {
    assertEquals(42L, roundTrip(Serdes.longs(), 42L));
    assertEquals(-7, roundTrip(Serdes.ints(), -7));
    assertEquals(2.5, roundTrip(Serdes.doubles(), 2.5));
    assertEquals("héllo", roundTrip(Serdes.string(), "héllo"));
    assertArrayEquals(new byte[] {1, 2}, roundTrip(Serdes.bytes(), new byte[] {1, 2}));
  }

  @Test
  void jsonHandlesRecordsAndGenericTypes() {
    assertEquals(new Point(1, "a"), roundTrip(Serdes.json(Point.class), new Point(1, "a")));
    var listSerde = Serdes.json(new TypeReference<List<Point>>() {});
    assertEquals(List.of(new Point(2, "b")), roundTrip(listSerde, List.of(new Point(2, "b"))));
  }

  @Test
  void protobufMessagesRoundTripWithoutGeneratedCodeInTheApi() {
    Serde<StringValue> serde = Serdes.protobuf(StringValue.parser());
    assertEquals(StringValue.of("x"), roundTrip(serde, StringValue.of("x")));
    SerdeException e =
        assertThrows(SerdeException.class, () -> serde.decode(new byte[] {(byte) 0xff}));
    assertTrue(e.getMessage().contains("protobuf"), e.getMessage());
  }

  @Test
  void autoKeepsTypesWithoutBeingTold() {
    Serde<Object> auto = Serdes.auto();
    for (Object value : List.of("s", 3L, 4, 1.5, true, new Point(3, "c"), Map.of("k", 1))) {
      assertEquals(value, roundTrip(auto, value));
    }
    assertArrayEquals(new byte[] {9}, (byte[]) roundTrip(auto, new byte[] {9}));
  }

  @Test
  void wrongBytesGiveClearErrors() {
    SerdeException e = assertThrows(SerdeException.class, () -> Serdes.longs().decode(new byte[3]));
    assertTrue(e.getMessage().contains("8 bytes, got 3"), e.getMessage());
    e = assertThrows(SerdeException.class, () -> Serdes.json(Point.class).decode(new byte[] {'{'}));
    assertTrue(e.getMessage().contains("not JSON"), e.getMessage());
  }

  /**
   * Keys (keyBy's default serde) read back as the collection class they were written as, so they
   * are written alike again; values read back as before, as mutable collections. A list of
   * Stream.toList() may hold nulls.
   */
  @Test
  void keysReadBackAsTheImmutableCollectionTheyWereAndValuesAsBefore() {
    Serde<Object> keys = dev.statekit.stream.serde.AutoSerde.KEYS;
    Serde<Object> values = Serdes.auto();
    List<Object> samples =
        List.of(
            List.of("a"),
            List.of("a", "b"),
            List.of("a", "b", "c"),
            java.util.stream.Stream.of("a").toList(),
            java.util.stream.Stream.of("a", "b").toList(),
            java.util.Arrays.asList("a", null).stream().toList(),
            java.util.Set.of("a"),
            Map.of("a", 1));
    for (Object key : samples) {
      byte[] bytes = keys.encode(key);
      Object back = keys.decode(bytes);
      assertEquals(key, back);
      assertEquals(key.getClass(), back.getClass(), key.toString());
      assertArrayEquals(bytes, keys.encode(back), key.toString());
      assertArrayEquals(bytes, values.encode(key), "keys and values are written alike");
    }
    Object value = values.decode(values.encode(List.of("a", "b")));
    assertEquals(java.util.ArrayList.class, value.getClass());
  }
}
