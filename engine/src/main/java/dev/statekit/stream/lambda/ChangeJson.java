package dev.statekit.stream.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.event.ChangeRecord;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A DynamoDB change as the bytes a pipeline reads: plain JSON, so that {@code
 * Serdes.json(Change.class)} decodes it without DynamoDB's type tags.
 *
 * <pre>{@code
 * {"eventName": "MODIFY", "keys": {"pk": "card#1"},
 *  "newImage": {"pk": "card#1", "limit": 500}, "oldImage": {"pk": "card#1", "limit": 300}}
 * }</pre>
 *
 * Attributes come in the order of their names. Numbers become JSON numbers, binary values base64
 * strings, sets arrays; an image the stream does not carry is left out.
 */
final class ChangeJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ChangeJson() {}

  static byte[] bytes(ChangeRecord change) {
    ObjectNode node = JSON.createObjectNode();
    node.put("eventName", change.eventName());
    node.set("keys", item(change.keys()));
    // Attributes by name: the event's order is not kept, and equal changes give equal bytes.
    if (!change.newImage().isEmpty()) {
      node.set("newImage", item(change.newImage()));
    }
    if (!change.oldImage().isEmpty()) {
      node.set("oldImage", item(change.oldImage()));
    }
    try {
      return JSON.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Could not write a change as JSON: " + e, e);
    }
  }

  private static ObjectNode item(Map<String, AttributeValue> item) {
    ObjectNode node = JSON.createObjectNode();
    new TreeMap<>(item).forEach((name, value) -> node.set(name, value(value)));
    return node;
  }

  private static JsonNode value(AttributeValue v) {
    if (v.s() != null) {
      return JSON.getNodeFactory().textNode(v.s());
    }
    if (v.n() != null) {
      return JSON.getNodeFactory().numberNode(new BigDecimal(v.n()));
    }
    if (v.b() != null) {
      return JSON.getNodeFactory().textNode(base64(v.b()));
    }
    if (v.bool() != null) {
      return JSON.getNodeFactory().booleanNode(v.bool());
    }
    if (Boolean.TRUE.equals(v.nul())) {
      return JSON.getNodeFactory().nullNode();
    }
    if (v.hasM()) {
      return item(v.m());
    }
    ArrayNode array = JSON.createArrayNode();
    if (v.hasL()) {
      v.l().forEach(element -> array.add(value(element)));
    } else if (v.hasSs()) {
      v.ss().forEach(array::add);
    } else if (v.hasNs()) {
      v.ns().forEach(n -> array.add(new BigDecimal(n)));
    } else if (v.hasBs()) {
      v.bs().forEach(b -> array.add(base64(b)));
    }
    return array;
  }

  private static String base64(SdkBytes bytes) {
    return Base64.getEncoder().encodeToString(bytes.asByteArrayUnsafe());
  }
}
