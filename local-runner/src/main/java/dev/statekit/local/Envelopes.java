package dev.statekit.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.function.Address;
import dev.statekit.function.Message;
import java.io.IOException;
import java.util.Base64;

/**
 * Ingress envelopes ({@code {"target", "typename", "value", "id"}}) as the runtime takes them in
 * direct invokes and on its queue: a string value for {@code io.statefun.types/string}, JSON values
 * for JSON types, base64 for other bytes.
 */
final class Envelopes {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String STRING = "io.statefun.types/string";

  private Envelopes() {}

  /** The envelope of {@code message}, with an idempotency key unless {@code id} is null. */
  static byte[] of(Message message, String id) {
    String typeName = message.valueTypeName().asString();
    byte[] bytes = message.rawValue();
    JsonNode value;
    if (typeName.equals(STRING)) {
      value = JSON.getNodeFactory().textNode(message.asUtf8String());
    } else {
      value = jsonOrNull(bytes);
      if (value == null || value.isTextual()) {
        value = JSON.getNodeFactory().textNode(Base64.getEncoder().encodeToString(bytes));
      }
    }
    return envelope(message.targetAddress(), typeName, value, id);
  }

  /**
   * The envelope of a value given on the command line: JSON if it parses as an object, array,
   * number or boolean and no type is given, else a string.
   */
  static byte[] ofText(Address target, String typeName, String text, String id) {
    JsonNode value = jsonOrNull(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    String type = typeName;
    if (type == null) {
      type = STRING;
      value = JSON.getNodeFactory().textNode(text);
    } else if (type.equals(STRING) || value == null || value.isTextual()) {
      value = JSON.getNodeFactory().textNode(text);
    }
    return envelope(target, type, value, id);
  }

  /** {@link #ofText} as a request-reply call ({@code "call": true}), answered with the reply. */
  static byte[] callOfText(Address target, String typeName, String text, String id) {
    try {
      ObjectNode envelope = (ObjectNode) JSON.readTree(ofText(target, typeName, text, id));
      envelope.put("call", true);
      return JSON.writeValueAsBytes(envelope);
    } catch (IOException e) {
      throw new IllegalStateException("Could not write an envelope", e);
    }
  }

  private static byte[] envelope(Address target, String typeName, JsonNode value, String id) {
    ObjectNode envelope = JSON.createObjectNode();
    envelope.put("target", target.toString());
    envelope.put("typename", typeName);
    envelope.set("value", value);
    if (id != null) {
      envelope.put("id", id);
    }
    try {
      return JSON.writeValueAsBytes(envelope);
    } catch (IOException e) {
      throw new IllegalStateException("Could not write an envelope", e);
    }
  }

  private static JsonNode jsonOrNull(byte[] bytes) {
    try {
      JsonNode node = JSON.readTree(bytes);
      return node == null || node.isMissingNode() ? null : node;
    } catch (IOException e) {
      return null;
    }
  }
}
