package dev.statekit.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A JSON type asks Jackson for its reader and writer with its first value: Jackson introspects the
 * Java type then, and a registry's types are declared at a cold start whose payload may use none.
 */
class JsonTypeLazinessTest {
  record Order(String id, int quantity) {}

  /** Counts the readers and writers made (each one introspects the type). */
  static final class CountingMapper extends ObjectMapper {
    final AtomicInteger made = new AtomicInteger();

    @Override
    public ObjectReader readerFor(JavaType type) {
      made.incrementAndGet();
      return super.readerFor(type);
    }

    @Override
    public ObjectWriter writerFor(JavaType type) {
      made.incrementAndGet();
      return super.writerFor(type);
    }
  }

  @Test
  void declaringTheTypeMakesNoReaderOrWriterTheFirstValueMakesThemOnce() {
    CountingMapper mapper = new CountingMapper();
    Type<Order> type = Types.json(TypeName.of("shop", "order"), Order.class, mapper);

    assertEquals(0, mapper.made.get());
    assertTrue(type.toString().contains(Order.class.getName()), type.toString());
    byte[] bytes = type.serialize(new Order("o1", 2));
    assertEquals(2, mapper.made.get());
    assertEquals(new Order("o1", 2), type.deserialize(bytes));
    type.serialize(new Order("o2", 3));
    assertEquals(2, mapper.made.get());
  }

  @Test
  void aValueThatIsNotJsonForTheTypeIsStillAClearError() {
    Type<Order> type = Types.json(TypeName.of("shop", "order"), Order.class);

    var e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> type.deserialize("[1".getBytes()));
    assertTrue(e.getMessage().contains("shop/order"), e.getMessage());
    assertTrue(e.getMessage().contains("Order"), e.getMessage());
  }

  @Test
  void primingAnEntryPointMakesTheReadersAndWritersOfTheJsonTypesAlreadyMade() {
    CountingMapper mapper = new CountingMapper();
    Type<Order> type = Types.json(TypeName.of("shop", "order"), Order.class, mapper);
    dev.statekit.entry.EntryPoint entry =
        dev.statekit.entry.EntryPoint.builder().envelopes(json -> json).build();

    assertEquals(0, mapper.made.get());
    entry.prime();
    assertEquals(2, mapper.made.get(), "made before a snapshot");
    type.serialize(new Order("o1", 1));
    assertEquals(2, mapper.made.get(), "not made again on the first value");
  }
}
