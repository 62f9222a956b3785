package dev.statekit.entry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.entry.ChangeRecord;
import dev.statekit.entry.KinesisRecord;
import dev.statekit.entry.QueueRecord;
import dev.statekit.entry.ScheduledEvent;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Lambda's event JSON into the entry point's records. Field names follow the events as Lambda
 * sends them; a missing required field is an {@link IllegalArgumentException} naming it.
 */
public final class EventReader {
  private EventReader() {}

  /** The messages of an SQS event. */
  public static List<QueueRecord> sqs(JsonNode event) {
    List<QueueRecord> records = new ArrayList<>();
    int i = 0;
    for (JsonNode r : event.path("Records")) {
      String where = "Records[" + i++ + "]";
      Map<String, String> messageAttributes = new LinkedHashMap<>();
      r.path("messageAttributes")
          .fields()
          .forEachRemaining(
              f -> {
                JsonNode value = f.getValue().path("stringValue");
                if (value.isTextual()) {
                  messageAttributes.put(f.getKey(), value.asText());
                }
              });
      records.add(
          new QueueRecord(
              QueueRecord.queueName(required(r, "eventSourceARN", where)),
              required(r, "messageId", where),
              r.path("body").asText(""),
              strings(r.path("attributes")),
              messageAttributes));
    }
    return records;
  }

  /** The records of a Kinesis event. */
  public static List<KinesisRecord> kinesis(JsonNode event) {
    List<KinesisRecord> records = new ArrayList<>();
    int i = 0;
    for (JsonNode r : event.path("Records")) {
      String where = "Records[" + i++ + "]";
      JsonNode k = r.path("kinesis");
      String eventId = required(r, "eventID", where);
      int colon = eventId.indexOf(':');
      byte[] data;
      try {
        data = Base64.getDecoder().decode(required(k, "data", where + ".kinesis"));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            where + ".kinesis.data is not base64: " + e.getMessage(), e);
      }
      records.add(
          new KinesisRecord(
              KinesisRecord.streamName(required(r, "eventSourceARN", where)),
              colon < 0 ? eventId : eventId.substring(0, colon),
              required(k, "sequenceNumber", where + ".kinesis"),
              k.path("partitionKey").asText(""),
              data,
              epochSeconds(k.path("approximateArrivalTimestamp"))));
    }
    return records;
  }

  /** The records of a DynamoDB Streams event. */
  public static List<ChangeRecord> dynamoDb(JsonNode event) {
    List<ChangeRecord> records = new ArrayList<>();
    int i = 0;
    for (JsonNode r : event.path("Records")) {
      String where = "Records[" + i++ + "]";
      JsonNode d = r.path("dynamodb");
      records.add(
          new ChangeRecord(
              ChangeRecord.tableName(required(r, "eventSourceARN", where)),
              r.path("eventID").asText(""),
              required(r, "eventName", where),
              required(d, "SequenceNumber", where + ".dynamodb"),
              epochSeconds(d.path("ApproximateCreationDateTime")),
              DynamoDbJson.item(d.get("Keys"), where + ".dynamodb.Keys"),
              DynamoDbJson.item(d.get("NewImage"), where + ".dynamodb.NewImage"),
              DynamoDbJson.item(d.get("OldImage"), where + ".dynamodb.OldImage")));
    }
    return records;
  }

  /** An EventBridge scheduled event. */
  public static ScheduledEvent scheduled(JsonNode event) {
    Instant time;
    try {
      String text = event.path("time").asText("");
      time = text.isEmpty() ? Instant.now() : Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "The scheduled event's time '"
              + event.path("time").asText()
              + "' is not an ISO-8601 instant",
          e);
    }
    List<String> resources = new ArrayList<>();
    event.path("resources").forEach(r -> resources.add(r.asText()));
    return new ScheduledEvent(event.path("id").asText(""), time, resources);
  }

  private static String required(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw new IllegalArgumentException(where + " has no " + field + "; Lambda always sends it");
    }
    return value.asText();
  }

  private static Map<String, String> strings(JsonNode object) {
    Map<String, String> map = new LinkedHashMap<>();
    object.fields().forEachRemaining(f -> map.put(f.getKey(), f.getValue().asText()));
    return map;
  }

  /** Kinesis and DynamoDB give epoch seconds with a fraction; missing means unknown (epoch 0). */
  private static Instant epochSeconds(JsonNode seconds) {
    if (!seconds.isNumber() && !seconds.isTextual()) {
      return Instant.EPOCH;
    }
    try {
      BigDecimal value = new BigDecimal(seconds.asText());
      return Instant.ofEpochMilli(value.movePointRight(3).longValue());
    } catch (NumberFormatException e) {
      return Instant.EPOCH;
    }
  }
}
