package dev.statekit.stream.serde;

import static dev.statekit.stream.serde.SerdesJsonTesting.onFreshThread;
import static dev.statekit.stream.serde.SerdesJsonTesting.printable;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.FormatSchema;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.junit.jupiter.api.Test;

/**
 * What a serializer can see of the generator itself: its version, its class (in the messages
 * Jackson builds from it) and its identity. {@code writeValueAsBytes} gives every value a Jackson
 * {@code UTF8JsonGenerator} of its own; the serde must look the same to a serializer, or the bytes
 * and failures are not those of {@code writeValueAsBytes}.
 */
class SerdesJsonGeneratorIdentityTest {
  private static final ObjectMapper PLAIN = new ObjectMapper().findAndRegisterModules();

  /** Its serializer stamps which Jackson wrote it (provenance kept with a state or an event). */
  @JsonSerialize(using = Stamped.Writer.class)
  record Stamped(String id) {
    static final class Writer extends JsonSerializer<Stamped> {
      @Override
      public void serialize(Stamped value, JsonGenerator gen, SerializerProvider serializers)
          throws IOException {
        gen.writeStartObject();
        gen.writeStringField("id", value.id());
        gen.writeStringField("writtenBy", "jackson-core " + gen.version());
        gen.writeEndObject();
      }
    }
  }

  /** A schema of another format, which a JSON generator refuses. */
  record RowSchema() implements FormatSchema {
    @Override
    public String getSchemaType() {
      return "row";
    }
  }

  /** Its serializer (shared with a row format) sets its schema on the generator. */
  @JsonSerialize(using = Row.Writer.class)
  record Row(String id) {
    static final class Writer extends JsonSerializer<Row> {
      @Override
      public void serialize(Row value, JsonGenerator gen, SerializerProvider serializers)
          throws IOException {
        gen.setSchema(new RowSchema());
        gen.writeString(value.id());
      }
    }
  }

  /**
   * Its serializer writes a header once per output document (per generator) and only the value
   * after it, as a streaming writer does.
   */
  @JsonSerialize(using = Headed.Writer.class)
  record Headed(int n) {
    static final class Writer extends JsonSerializer<Headed> {
      private static final Map<JsonGenerator, Boolean> HEADED =
          Collections.synchronizedMap(new WeakHashMap<>());

      @Override
      public void serialize(Headed value, JsonGenerator gen, SerializerProvider serializers)
          throws IOException {
        gen.writeStartObject();
        if (HEADED.put(gen, Boolean.TRUE) == null) {
          gen.writeStringField("schema", "headed/1");
        }
        gen.writeNumberField("n", value.n());
        gen.writeEndObject();
      }
    }
  }

  record Card(String id, long cents) {}

  @Test
  void aSerializerStampingTheJacksonVersionWritesWhatWriteValueAsBytesWrites() throws Exception {
    onFreshThread(
        () -> {
          Stamped value = new Stamped("s-1");
          assertEquals(
              printable(PLAIN.writeValueAsBytes(value)),
              printable(Serdes.json(Stamped.class).encode(value)));
          return null;
        });
  }

  @Test
  void theAutoSerdeStampsTheJacksonVersionAsWriteValueAsBytes() throws Exception {
    onFreshThread(
        () -> {
          Stamped value = new Stamped("s-1");
          byte[] auto = Serdes.auto().encode(value);
          String written = printable(auto);
          assertEquals(
              printable(PLAIN.writeValueAsBytes(value)),
              written.substring(written.indexOf('{')),
              "the JSON after Serdes.auto()'s header");
          return null;
        });
  }

  @Test
  void aSerializerSettingASchemaFailsWithTheMessageWriteValueAsBytesGives() throws Exception {
    onFreshThread(
        () -> {
          Row value = new Row("r-1");
          IOException plain = assertThrows(IOException.class, () -> PLAIN.writeValueAsBytes(value));
          SerdeException failed =
              assertThrows(SerdeException.class, () -> Serdes.json(Row.class).encode(value));
          assertAll(
              () ->
                  assertEquals(
                      "Cannot write "
                          + PLAIN.constructType(Row.class)
                          + " as JSON: "
                          + plain.getMessage(),
                      failed.getMessage()),
              () -> assertEquals(plain.getClass(), failed.getCause().getClass(), "cause"),
              () ->
                  assertEquals(
                      plain.getCause().getMessage(),
                      failed.getCause().getCause().getMessage(),
                      "cause's cause"));
          return null;
        });
  }

  @Test
  void aSerializerKeepingStatePerOutputDocumentWritesTheSameKeyTheSameTwice() throws Exception {
    onFreshThread(
        () -> {
          Serde<Headed> serde = Serdes.json(Headed.class);
          Headed key = new Headed(7);
          byte[] first = serde.encode(key);
          Serdes.json(Card.class).encode(new Card("c", 1)); // another value on this thread
          byte[] second = serde.encode(key);
          assertAll(
              () -> assertEquals(printable(PLAIN.writeValueAsBytes(key)), printable(first)),
              () ->
                  assertEquals(printable(first), printable(second), "the same key written twice"));
          return null;
        });
  }
}
