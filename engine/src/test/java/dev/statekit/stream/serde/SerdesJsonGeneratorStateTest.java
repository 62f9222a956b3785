package dev.statekit.stream.serde;

import static dev.statekit.stream.serde.SerdesJsonTesting.onFreshThread;
import static dev.statekit.stream.serde.SerdesJsonTesting.printable;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code writeValueAsBytes} makes a fresh generator per value and closes it. A writer that keeps a
 * generator from value to value must not let what a value's serializer leaves in it (a feature it
 * turned on, a structure it left open, the root context's separator) change the bytes of that value
 * or of any value the thread writes after it: state, keys and timer items are compared and stored
 * by these bytes.
 *
 * <p>Each case runs on a thread of its own, so that what it leaves behind cannot reach other tests.
 */
class SerdesJsonGeneratorStateTest {
  private static final ObjectMapper PLAIN = new ObjectMapper().findAndRegisterModules();

  /** A key or state holding an amount. */
  record Amount(String currency, BigDecimal value) {}

  /** Its serializer turns a generator feature on to write its amount without exponent. */
  @JsonSerialize(using = PlainAmount.Writer.class)
  record PlainAmount(BigDecimal value) {
    static final class Writer extends JsonSerializer<PlainAmount> {
      @Override
      public void serialize(PlainAmount value, JsonGenerator gen, SerializerProvider serializers)
          throws IOException {
        gen.enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
        gen.writeNumber(value.value());
      }
    }
  }

  /** Its serializer forgets to close the array it starts; writeValueAsBytes closes it on close. */
  @JsonSerialize(using = Unclosed.Writer.class)
  record Unclosed(int n) {
    static final class Writer extends JsonSerializer<Unclosed> {
      @Override
      public void serialize(Unclosed value, JsonGenerator gen, SerializerProvider serializers)
          throws IOException {
        gen.writeStartArray();
        gen.writeNumber(value.n());
      }
    }
  }

  record Card(String id, long cents, List<String> countries) {}

  @Test
  void aFeatureOneValuesSerializerTurnsOnDoesNotChangeTheNextValuesBytes() throws Exception {
    onFreshThread(
        () -> {
          Serde<Object> auto = Serdes.auto();
          Amount key = new Amount("EUR", new BigDecimal("1E+3"));
          byte[] before = auto.encode(key);
          auto.encode(new PlainAmount(new BigDecimal("5E+1"))); // another key or state, same thread
          byte[] after = auto.encode(key);
          // The same key must encode to the same bytes: state and timer items are found by them.
          assertEquals(
              printable(before),
              printable(after),
              "the same key written before and after another value");
          return null;
        });
  }

  @Test
  void aFeatureOneValuesSerializerTurnsOnDoesNotReachTheNextValueOfAnotherSerde() throws Exception {
    onFreshThread(
        () -> {
          Amount amount = new Amount("EUR", new BigDecimal("1E+3"));
          Serdes.json(PlainAmount.class).encode(new PlainAmount(new BigDecimal("5E+1")));
          assertEquals(
              new String(PLAIN.writeValueAsBytes(amount), StandardCharsets.UTF_8),
              new String(Serdes.json(Amount.class).encode(amount), StandardCharsets.UTF_8),
              "an Amount written after a PlainAmount, through another json serde");
          return null;
        });
  }

  @Test
  void aStructureOneValuesSerializerLeavesOpenDoesNotSpoilTheNextValue() throws Exception {
    onFreshThread(
        () -> {
          Serde<Card> cards = Serdes.json(Card.class);
          Card card = new Card("card-1", 250, List.of("FR", "DE"));
          Serdes.json(Unclosed.class).encode(new Unclosed(1));
          assertEquals(
              new String(PLAIN.writeValueAsBytes(card), StandardCharsets.UTF_8),
              new String(cards.encode(card), StandardCharsets.UTF_8),
              "a value written after one whose serializer left an array open");
          return null;
        });
  }

  @Test
  void aValueWhoseSerializerLeavesAStructureOpenIsClosedAsWriteValueAsBytesClosesIt()
      throws Exception {
    onFreshThread(
        () -> {
          Unclosed value = new Unclosed(1);
          assertEquals(
              new String(PLAIN.writeValueAsBytes(value), StandardCharsets.UTF_8),
              new String(Serdes.json(Unclosed.class).encode(value), StandardCharsets.UTF_8));
          return null;
        });
  }

  @Test
  void rootValuesAfterTheThreadsFirstAreSeparatedAsWriteValueAsBytesSeparatesThem()
      throws Exception {
    onFreshThread(
        () -> {
          // A token buffer holding two root values: writeValueAsBytes writes "1 2" (read back: 1).
          TokenBuffer two = new TokenBuffer(PLAIN, false);
          two.writeNumber(1);
          two.writeNumber(2);
          Serde<TokenBuffer> serde = Serdes.json(TokenBuffer.class);
          assertEquals(
              new String(PLAIN.writeValueAsBytes(two), StandardCharsets.UTF_8),
              new String(serde.encode(two), StandardCharsets.UTF_8));
          return null;
        });
  }
}
