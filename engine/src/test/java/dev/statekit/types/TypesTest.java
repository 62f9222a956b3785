package dev.statekit.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Timestamp;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TypesTest {
  /** A record, as users write JSON state. */
  record Order(String id, List<String> items, long cents) {}

  @Test
  void jsonTypesRoundTripRecords() {
    Type<Order> type = Types.json(TypeName.of("com.example", "Order"), Order.class);
    Order order = new Order("o-1", List.of("tea", "cake"), 450);

    byte[] bytes = type.serialize(order);

    assertEquals(
        "{\"id\":\"o-1\",\"items\":[\"tea\",\"cake\"],\"cents\":450}",
        new String(bytes, StandardCharsets.UTF_8));
    assertEquals(order, type.deserialize(bytes));
    assertEquals("com.example/Order", type.typeName().asString());
  }

  @Test
  void badJsonSaysWhatItExpected() {
    Type<Order> type = Types.json(TypeName.of("com.example", "Order"), Order.class);

    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> type.deserialize("[1,2]".getBytes(StandardCharsets.UTF_8)));

    assertTrue(e.getMessage().contains("com.example/Order"), e.getMessage());
  }

  @Test
  void protobufTypesAreNamedAfterTheirMessage() {
    Type<Timestamp> type = Types.protobuf(Timestamp.getDefaultInstance());
    Timestamp time = Timestamp.newBuilder().setSeconds(1_700_000_000L).setNanos(5).build();

    assertEquals("type.googleapis.com/google.protobuf.Timestamp", type.typeName().asString());
    assertArrayEquals(time.toByteArray(), type.serialize(time));
    assertEquals(time, type.deserialize(time.toByteArray()));
    assertTrue(type.immutableValues());
    assertThrows(IllegalArgumentException.class, () -> type.deserialize(new byte[] {(byte) 0xFF}));
  }

  @Test
  void simpleTypesUseTheGivenFunctions() {
    Type<String> upper =
        Types.simpleImmutable(
            TypeName.of("com.example", "Upper"),
            s -> s.toUpperCase().getBytes(StandardCharsets.UTF_8),
            b -> new String(b, StandardCharsets.UTF_8));

    assertEquals("ABC", upper.deserialize(upper.serialize("abc")));
    assertTrue(upper.immutableValues());
    Type<String> nulls = Types.simple(TypeName.of("a", "b"), s -> null, b -> "");
    assertThrows(IllegalStateException.class, () -> nulls.serialize("x"));
  }
}
