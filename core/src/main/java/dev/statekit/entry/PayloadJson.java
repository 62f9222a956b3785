package dev.statekit.entry;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.json.BoundedJson;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Parses JSON payloads within {@link BoundedJson}'s bounds. */
final class PayloadJson {
  private PayloadJson() {}

  /** The payload's JSON; an {@link UnrecognizedPayloadException} if it does not parse. */
  static JsonNode parse(byte[] payload) {
    try {
      return BoundedJson.read(payload);
    } catch (JacksonException e) {
      throw EntryErrors.unparsable(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The payload's JSON, or {@code null} if it does not parse. */
  static JsonNode parseOrNull(byte[] payload) {
    try {
      return BoundedJson.read(payload);
    } catch (IOException e) {
      return null;
    }
  }
}
