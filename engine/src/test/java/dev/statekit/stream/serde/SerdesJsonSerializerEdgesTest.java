package dev.statekit.stream.serde;

import static dev.statekit.stream.serde.SerdesJsonTesting.onFreshThread;
import static dev.statekit.stream.serde.SerdesJsonTesting.printable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Serializers that look at or change the generator they are given (its root separator, its pretty
 * printer, its output context) or that read one-shot input: the serde writes what {@code
 * writeValueAsBytes} writes alone, and a value it refuses fails, read once. Each runs on a fresh
 * thread.
 */
class SerdesJsonSerializerEdgesTest {
  private static final ObjectMapper PLAIN = new ObjectMapper().findAndRegisterModules();

  record Card(String id, long cents) {}

  /** Writes its lines as one root value each would be, separated by a newline. */
  @JsonSerialize(using = Lines.Writer.class)
  record Lines(String text) {
    static final class Writer extends JsonSerializer<Lines> {
      @Override
      public void serialize(Lines value, JsonGenerator gen, SerializerProvider serializers)
          throws IOException {
        gen.setRootValueSeparator(new SerializedString("\n"));
        gen.writeString(value.text());
      }
    }
  }

  /** Its serializer pretty-prints what it writes. */
  @JsonSerialize(using = Pretty.Writer.class)
  record Pretty(int n) {
    static final class Writer extends JsonSerializer<Pretty> {
      @Override
      public void serialize(Pretty value, JsonGenerator gen, SerializerProvider serializers)
          throws IOException {
        gen.useDefaultPrettyPrinter();
        gen.writeStartArray();
        gen.writeNumber(value.n());
        gen.writeEndArray();
      }
    }
  }

  /** Its serializer writes the JSON pointer of where it is (as a "$ref"-style writer would). */
  @JsonSerialize(using = Where.Writer.class)
  record Where(int n) {
    static final class Writer extends JsonSerializer<Where> {
      @Override
      public void serialize(Where value, JsonGenerator gen, SerializerProvider serializers)
          throws IOException {
        gen.writeStartObject();
        gen.writeStringField("at", gen.getOutputContext().pathAsPointer(true).toString());
        gen.writeNumberField("n", value.n());
        gen.writeEndObject();
      }
    }
  }

  /** A page of rows read once from a cursor. */
  record Page(String id, Iterator<Object> rows) {}

  /** A cursor's rows, streamed into an array its serializer leaves open (closed at close). */
  @JsonSerialize(using = Streamed.Writer.class)
  record Streamed(Iterator<Integer> rows) {
    static final class Writer extends JsonSerializer<Streamed> {
      @Override
      public void serialize(Streamed value, JsonGenerator gen, SerializerProvider serializers)
          throws IOException {
        gen.writeStartArray();
        while (value.rows().hasNext()) {
          gen.writeNumber(value.rows().next());
        }
      }
    }
  }

  @Test
  void aSerializerSettingTheRootValueSeparatorWritesNoSeparatorBeforeItsOwnValue()
      throws Exception {
    onFreshThread(
        () -> {
          Lines value = new Lines("hello");
          Serdes.json(Card.class).encode(new Card("c", 1)); // the thread's first value
          assertEquals(
              printable(PLAIN.writeValueAsBytes(value)),
              printable(Serdes.json(Lines.class).encode(value)));
          return null;
        });
  }

  @Test
  void aSerializerThatPrettyPrintsWritesNoRootSeparatorBeforeItsValue() throws Exception {
    onFreshThread(
        () -> {
          Pretty value = new Pretty(1);
          Serdes.json(Card.class).encode(new Card("c", 1)); // the thread's first value
          assertEquals(
              printable(PLAIN.writeValueAsBytes(value)),
              printable(Serdes.json(Pretty.class).encode(value)));
          return null;
        });
  }

  @Test
  void theSameKeyEncodesTheSameWhenItsSerializerLooksAtTheOutputContext() throws Exception {
    onFreshThread(
        () -> {
          Serde<Object> auto = Serdes.auto();
          Where key = new Where(7);
          byte[] first = auto.encode(key);
          byte[] second = auto.encode(key);
          assertEquals(
              printable(first), printable(second), "the same key written twice on one thread");
          return null;
        });
  }

  @Test
  void aValueThatFailsIsNotWrittenASecondTimeFromWhatTheFirstTryLeft() throws Exception {
    onFreshThread(
        () -> {
          Serde<Page> pages = Serdes.json(Page.class);
          // writeValueAsBytes fails on the row it cannot write (an empty bean).
          assertThrows(
              IOException.class,
              () -> PLAIN.writeValueAsBytes(new Page("p", List.of(1, new Object()).iterator())));
          Page page = new Page("p", List.<Object>of(1, new Object()).iterator());
          String written;
          try {
            written = printable(pages.encode(page));
          } catch (SerdeException expected) {
            return null;
          }
          return fail("writeValueAsBytes fails on this page, but the serde wrote " + written);
        });
  }

  @Test
  void aValueStreamedIntoAnOpenArrayIsReadOnce() throws Exception {
    onFreshThread(
        () -> {
          String expected =
              printable(PLAIN.writeValueAsBytes(new Streamed(List.of(1, 2, 3).iterator())));
          assertEquals("[1,2,3]", expected);
          Streamed value = new Streamed(List.of(1, 2, 3).iterator());
          assertEquals(expected, printable(Serdes.json(Streamed.class).encode(value)));
          return null;
        });
  }
}
