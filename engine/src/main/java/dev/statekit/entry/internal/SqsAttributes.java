package dev.statekit.entry.internal;

import static dev.statekit.entry.internal.EventFields.bounded;
import static dev.statekit.entry.internal.EventFields.digits;
import static dev.statekit.entry.internal.EventFields.malformed;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The attributes of an SQS message, each held to what SQS sends: the runtime trusts the FIFO
 * sequence number and message group, so one SQS could not have sent is refused here.
 */
final class SqsAttributes {
  private SqsAttributes() {}

  static Map<String, String> read(JsonNode attributes, String where) {
    Map<String, String> map = new LinkedHashMap<>();
    if (attributes.isMissingNode() || attributes.isNull()) {
      return map;
    }
    String at = where + ".attributes";
    if (!attributes.isObject() || attributes.size() > EventLimits.MAX_ATTRIBUTES) {
      throw malformed(
          at + " is not an object of at most " + EventLimits.MAX_ATTRIBUTES + " strings");
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = attributes.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (!field.getValue().isTextual()) {
        throw malformed(at + "." + field.getKey() + " is not a string");
      }
      String name = bounded(field.getKey(), at + " name", 256);
      map.put(
          name,
          bounded(field.getValue().asText(), at + "." + name, EventLimits.MAX_ATTRIBUTE_LENGTH));
    }
    check(map, "SequenceNumber", at, EventLimits.MAX_SQS_SEQUENCE_DIGITS);
    check(map, "ApproximateReceiveCount", at, 9);
    check(map, "SentTimestamp", at, 15);
    check(map, "ApproximateFirstReceiveTimestamp", at, 15);
    String sequence = map.get("SequenceNumber");
    if (sequence != null
        && sequence.length() == EventLimits.MAX_SQS_SEQUENCE_DIGITS
        && sequence.compareTo(EventLimits.MAX_SQS_SEQUENCE) > 0) {
      throw malformed(at + ".SequenceNumber is past 128 bits, which no SQS sequence number is");
    }
    String group = map.get("MessageGroupId");
    if (group != null) {
      bounded(group, at + ".MessageGroupId", EventLimits.MAX_GROUP_ID_LENGTH);
    }
    return map;
  }

  /** The string values of the message attributes the sender set. */
  static Map<String, String> messageAttributes(JsonNode attributes, String where) {
    Map<String, String> map = new LinkedHashMap<>();
    if (!attributes.isObject()) {
      return map;
    }
    if (attributes.size() > EventLimits.MAX_ATTRIBUTES) {
      throw malformed(
          where + ".messageAttributes has more than " + EventLimits.MAX_ATTRIBUTES + " attributes");
    }
    attributes
        .fields()
        .forEachRemaining(
            f -> {
              JsonNode value = f.getValue().path("stringValue");
              if (value.isTextual()) {
                map.put(f.getKey(), value.asText());
              }
            });
    return map;
  }

  private static void check(Map<String, String> map, String name, String at, int maxDigits) {
    String value = map.get(name);
    if (value != null) {
      digits(value, at + "." + name, maxDigits);
    }
  }
}
