package dev.statekit.entry;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Parses JSON payloads. The mapper is created on first use: ToFunction payloads never load it. */
final class PayloadJson {
  private PayloadJson() {}

  private static final class Holder {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  /** The payload's JSON; an {@link UnrecognizedPayloadException} if it does not parse. */
  static JsonNode parse(byte[] payload) {
    try {
      return Holder.MAPPER.readTree(payload);
    } catch (JacksonException e) {
      throw EntryErrors.unparsable(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The payload's JSON, or {@code null} if it does not parse. */
  static JsonNode parseOrNull(byte[] payload) {
    try {
      return Holder.MAPPER.readTree(payload);
    } catch (IOException e) {
      return null;
    }
  }
}
