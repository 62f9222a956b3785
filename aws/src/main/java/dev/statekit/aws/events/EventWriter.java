package dev.statekit.aws.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.entry.internal.EventReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * Lambda's event documents, built from what an SQS queue or a Kinesis shard handed out, as an event
 * source mapping builds them (the inverse of {@link EventReader}): for the local runner's emulated
 * event sources and for tests that drive a handler the way Lambda does.
 */
public final class EventWriter {
  private static final ObjectMapper JSON = new ObjectMapper();

  private EventWriter() {}

  /** An SQS event for {@code messages} of the queue {@code queueArn}. */
  public static byte[] sqs(List<Message> messages, String queueArn, String region) {
    ObjectNode event = JSON.createObjectNode();
    ArrayNode records = event.putArray("Records");
    for (Message m : messages) {
      ObjectNode r = records.addObject();
      r.put("messageId", m.messageId());
      r.put("receiptHandle", m.receiptHandle());
      r.put("body", m.body());
      ObjectNode attributes = r.putObject("attributes");
      m.attributesAsStrings().forEach(attributes::put);
      ObjectNode messageAttributes = r.putObject("messageAttributes");
      for (Map.Entry<String, MessageAttributeValue> a : m.messageAttributes().entrySet()) {
        ObjectNode value = messageAttributes.putObject(a.getKey());
        value.put("stringValue", a.getValue().stringValue());
        value.put("dataType", a.getValue().dataType());
      }
      r.put("md5OfBody", m.md5OfBody());
      r.put("eventSource", "aws:sqs");
      r.put("eventSourceARN", queueArn);
      r.put("awsRegion", region);
    }
    return bytes(event);
  }

  /** A Kinesis event for {@code records} of one shard. */
  public static byte[] kinesis(
      List<Record> records, String shardId, String streamArn, String region) {
    ObjectNode event = JSON.createObjectNode();
    ArrayNode out = event.putArray("Records");
    for (Record record : records) {
      ObjectNode r = out.addObject();
      ObjectNode k = r.putObject("kinesis");
      k.put("kinesisSchemaVersion", "1.0");
      k.put("partitionKey", record.partitionKey());
      k.put("sequenceNumber", record.sequenceNumber());
      k.put("data", Base64.getEncoder().encodeToString(record.data().asByteArray()));
      Instant arrival = record.approximateArrivalTimestamp();
      k.put("approximateArrivalTimestamp", arrival == null ? 0.0 : arrival.toEpochMilli() / 1000.0);
      r.put("eventSource", "aws:kinesis");
      r.put("eventVersion", "1.0");
      r.put("eventID", shardId + ":" + record.sequenceNumber());
      r.put("eventName", "aws:kinesis:record");
      r.put("invokeIdentityArn", "arn:aws:iam::000000000000:role/statekit-local");
      r.put("awsRegion", region);
      r.put("eventSourceARN", streamArn);
    }
    return bytes(event);
  }

  /** An EventBridge scheduled event fired at {@code time} by the rule {@code rule}. */
  public static byte[] scheduled(Instant time, String rule, String region) {
    ObjectNode event = JSON.createObjectNode();
    event.put("version", "0");
    event.put("id", UUID.randomUUID().toString());
    event.put("detail-type", "Scheduled Event");
    event.put("source", "aws.events");
    event.put("account", "000000000000");
    event.put("time", time.truncatedTo(java.time.temporal.ChronoUnit.MILLIS).toString());
    event.put("region", region);
    event.putArray("resources").add("arn:aws:events:" + region + ":000000000000:rule/" + rule);
    event.putObject("detail");
    return bytes(event);
  }

  /**
   * The item identifiers of a {@code batchItemFailures} answer; {@code null} if the answer is not
   * one (the whole batch then counts as done, as Lambda counts it without ReportBatchItemFailures).
   */
  public static List<String> batchItemFailures(byte[] answer) {
    JsonNode node;
    try {
      node = JSON.readTree(answer);
    } catch (java.io.IOException e) {
      return null;
    }
    if (node == null || !node.has("batchItemFailures")) {
      return null;
    }
    List<String> ids = new ArrayList<>();
    node.get("batchItemFailures").forEach(f -> ids.add(f.path("itemIdentifier").asText()));
    return ids;
  }

  private static byte[] bytes(ObjectNode event) {
    try {
      return JSON.writeValueAsBytes(event);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Could not write an event", e);
    }
  }
}
