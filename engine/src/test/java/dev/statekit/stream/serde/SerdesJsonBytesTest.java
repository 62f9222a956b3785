package dev.statekit.stream.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * JSON serdes write every value as {@code writeValueAsBytes} writes it alone, whatever the thread
 * wrote before it (a value that failed half-way, a huge one, a value written while writing
 * another): state and keys are stored and found by these bytes. These and the cases in {@link
 * SerdesJsonGeneratorStateTest} and {@link SerdesJsonSerializerEdgesTest} broke a Jackson generator
 * kept per thread from value to value (tried for speed on 4 December and taken back); any faster
 * writer must pass them.
 */
class SerdesJsonBytesTest {
  private static final ObjectMapper PLAIN = new ObjectMapper().findAndRegisterModules();

  record Card(String id, long cents, List<String> countries, Map<String, Integer> seen) {}

  /** Writes some fields, then fails. */
  record Broken(String before) {
    public String getAfter() {
      throw new IllegalStateException("no after");
    }
  }

  /** Its serializer writes another value through the serde while this one is being written. */
  @JsonSerialize(using = Nested.Writer.class)
  record Nested(Card inner) {
    static final class Writer extends JsonSerializer<Nested> {
      @Override
      public void serialize(Nested value, JsonGenerator gen, SerializerProvider serializers)
          throws IOException {
        gen.writeStartObject();
        gen.writeStringField("kind", "nested");
        byte[] inner = CARDS.encode(value.inner());
        gen.writeStringField("inner", new String(inner, StandardCharsets.UTF_8));
        gen.writeEndObject();
      }
    }
  }

  private static final Serde<Card> CARDS = Serdes.json(Card.class);

  @Test
  void everyValueIsWrittenAsItWouldBeAlone() throws Exception {
    Random random = new Random(7);
    for (int i = 0; i < 2_000; i++) {
      Card card = card(random, 1 + random.nextInt(i % 100 == 0 ? 5_000 : 5));
      assertArrayEquals(PLAIN.writeValueAsBytes(card), CARDS.encode(card), "value " + i);
      assertEquals(card, CARDS.decode(CARDS.encode(card)));
    }
    Serde<Object> auto = Serdes.auto();
    Card card = card(random, 3);
    assertEquals(card, auto.decode(auto.encode(card)));
  }

  @Test
  void aValueThatFailsHalfWayLeavesNothingForTheNext() throws Exception {
    Serde<Broken> broken = Serdes.json(Broken.class);
    Card card = card(new Random(1), 3);
    CARDS.encode(card);
    SerdeException failed =
        assertThrows(SerdeException.class, () -> broken.encode(new Broken("x")));
    assertTrue(failed.getMessage().contains("no after"), failed.getMessage());
    assertArrayEquals(PLAIN.writeValueAsBytes(card), CARDS.encode(card));
  }

  @Test
  void aValueWrittenWhileWritingAnotherComesOutWhole() throws Exception {
    Serde<Nested> nested = Serdes.json(Nested.class);
    Card card = card(new Random(2), 4);
    Nested value = new Nested(card);
    assertArrayEquals(PLAIN.writeValueAsBytes(value), nested.encode(value));
    assertArrayEquals(PLAIN.writeValueAsBytes(card), CARDS.encode(card));
  }

  @Test
  void genericTypesAndNullAreWrittenAsAlone() throws Exception {
    Serde<List<Card>> cards = Serdes.json(new TypeReference<List<Card>>() {});
    List<Card> list = List.of(card(new Random(3), 2), card(new Random(4), 1));
    assertArrayEquals(PLAIN.writeValueAsBytes(list), cards.encode(list));
    assertEquals(list, cards.decode(cards.encode(list)));
    assertArrayEquals(PLAIN.writeValueAsBytes(null), CARDS.encode(null));
  }

  @Test
  void threadsWritingAtOnceEachGetTheirOwnValues() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        done.add(
            pool.submit(
                () -> {
                  Random random = new Random(seed);
                  for (int i = 0; i < 5_000; i++) {
                    Card card = card(random, 1 + random.nextInt(20));
                    assertArrayEquals(PLAIN.writeValueAsBytes(card), CARDS.encode(card));
                  }
                  return seed;
                }));
      }
      for (Future<Integer> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static Card card(Random random, int countries) {
    List<String> list = new ArrayList<>();
    Map<String, Integer> seen = new LinkedHashMap<>();
    for (int i = 0; i < countries; i++) {
      String country = "C\u00e9" + random.nextInt(1000) + (random.nextInt(9) == 0 ? "\"\\\n" : "");
      list.add(country);
      seen.put(country, random.nextInt());
    }
    return new Card("card-" + random.nextLong(), random.nextLong(), list, seen);
  }
}
