package dev.statekit.entry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.json.BoundedJson;
import java.io.IOException;

/** Parses JSON payloads within {@link BoundedJson}'s bounds. */
final class PayloadJson {
  private PayloadJson() {}

  /** The payload's JSON; an {@link UnrecognizedPayloadException} if it does not parse. */
  static JsonNode parse(byte[] payload) {
    try {
      return BoundedJson.read(payload);
    } catch (IOException e) {
      // Parsing bytes in memory fails only for what they hold: never an I/O failure.
      throw EntryErrors.unparsable(e);
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
