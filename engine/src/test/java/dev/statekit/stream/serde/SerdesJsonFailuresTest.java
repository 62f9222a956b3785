package dev.statekit.stream.serde;

import static dev.statekit.stream.serde.SerdesJsonTesting.onFreshThread;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A serializer that fails with a plain {@link IOException} (one that is not a Jackson exception,
 * e.g. reading a file it inlines) fails the serde as {@code writeValueAsBytes} fails it: {@code
 * writeValueAsBytes} wraps such an exception in a {@code JsonMappingException} ("Unexpected
 * IOException (of type ...): ..."), and the serde's message and cause are built from that.
 */
class SerdesJsonFailuresTest {
  private static final ObjectMapper PLAIN = new ObjectMapper().findAndRegisterModules();

  /** A state holding an attachment that its serializer inlines from disk. */
  @JsonSerialize(using = Attachment.Writer.class)
  record Attachment(Path path) {
    static final class Writer extends JsonSerializer<Attachment> {
      @Override
      public void serialize(Attachment value, JsonGenerator gen, SerializerProvider serializers)
          throws IOException {
        gen.writeStartObject();
        gen.writeStringField("name", value.path().getFileName().toString());
        gen.writeBinaryField("content", Files.readAllBytes(value.path()));
        gen.writeEndObject();
      }
    }
  }

  record Card(String id, long cents) {}

  @Test
  void aSerializersIOExceptionFailsTheJsonSerdeAsWriteValueAsBytesFails(@TempDir Path dir)
      throws Exception {
    onFreshThread(
        () -> {
          Attachment value = new Attachment(dir.resolve("missing.pdf"));
          IOException plain = assertThrows(IOException.class, () -> PLAIN.writeValueAsBytes(value));
          Serdes.json(Card.class).encode(new Card("c", 1)); // the thread's first value
          SerdeException failed =
              assertThrows(SerdeException.class, () -> Serdes.json(Attachment.class).encode(value));
          assertAll(
              () ->
                  assertEquals(
                      "Cannot write "
                          + PLAIN.constructType(Attachment.class)
                          + " as JSON: "
                          + plain.getMessage(),
                      failed.getMessage()),
              () -> assertEquals(plain.getClass(), failed.getCause().getClass(), "cause"));
          return null;
        });
  }

  @Test
  void aSerializersIOExceptionFailsTheAutoSerdeAsWriteValueAsBytesFails(@TempDir Path dir)
      throws Exception {
    onFreshThread(
        () -> {
          Attachment value = new Attachment(dir.resolve("missing.pdf"));
          IOException plain = assertThrows(IOException.class, () -> PLAIN.writeValueAsBytes(value));
          SerdeException failed =
              assertThrows(SerdeException.class, () -> Serdes.auto().encode(value));
          assertAll(
              () ->
                  assertEquals(
                      "Cannot write "
                          + Attachment.class.getName()
                          + " as JSON ("
                          + plain.getMessage()
                          + "); give this state or key an explicit serde from Serdes",
                      failed.getMessage()),
              () -> assertEquals(plain.getClass(), failed.getCause().getClass(), "cause"));
          return null;
        });
  }
}
