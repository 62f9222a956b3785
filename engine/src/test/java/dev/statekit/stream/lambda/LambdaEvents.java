package dev.statekit.stream.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Kinesis, SQS and DynamoDB Streams events in the JSON Lambda sends, built from a few fields, and
 * the {@code batchItemFailures} of an answer: for tests that go through the entry point as Lambda
 * does.
 */
final class LambdaEvents {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ACCOUNT = "eu-west-1:123456789012";

  /** A Kinesis record: its sequence number, partition key, data and arrival (epoch seconds). */
  record Shard(String sequenceNumber, String partitionKey, String data, long arrivedAt) {}

  /** An SQS message; {@code group} is null on a standard queue. */
  record Message(String id, String body, String group, String sequenceNumber) {}

  /** A DynamoDB stream record changing item {@code pk}, whose new image holds {@code n}. */
  record Change(String sequenceNumber, String pk, long n, long createdAt) {}

  private LambdaEvents() {}

  static byte[] kinesis(String stream, String shardId, List<Shard> records) {
    ArrayNode all = JSON.createArrayNode();
    for (Shard r : records) {
      ObjectNode record = all.addObject();
      ObjectNode kinesis = record.putObject("kinesis");
      kinesis.put("kinesisSchemaVersion", "1.0");
      kinesis.put("partitionKey", r.partitionKey());
      kinesis.put("sequenceNumber", r.sequenceNumber());
      kinesis.put(
          "data", Base64.getEncoder().encodeToString(r.data().getBytes(StandardCharsets.UTF_8)));
      kinesis.put("approximateArrivalTimestamp", r.arrivedAt());
      record.put("eventSource", "aws:kinesis");
      record.put("eventVersion", "1.0");
      record.put("eventID", shardId + ":" + r.sequenceNumber());
      record.put("eventName", "aws:kinesis:record");
      record.put("eventSourceARN", "arn:aws:kinesis:" + ACCOUNT + ":stream/" + stream);
    }
    return event(all);
  }

  static byte[] sqs(String queue, List<Message> messages) {
    ArrayNode all = JSON.createArrayNode();
    for (Message m : messages) {
      ObjectNode record = all.addObject();
      record.put("messageId", m.id());
      record.put("body", m.body());
      ObjectNode attributes = record.putObject("attributes");
      attributes.put("ApproximateReceiveCount", "1");
      attributes.put("SentTimestamp", "1700000000000");
      if (m.group() != null) {
        attributes.put("MessageGroupId", m.group());
        attributes.put("SequenceNumber", m.sequenceNumber());
      }
      record.putObject("messageAttributes");
      record.put("eventSource", "aws:sqs");
      record.put("eventSourceARN", "arn:aws:sqs:" + ACCOUNT + ":" + queue);
      record.put("awsRegion", "eu-west-1");
    }
    return event(all);
  }

  static byte[] dynamoDb(String table, List<Change> changes) {
    ArrayNode all = JSON.createArrayNode();
    for (Change c : changes) {
      ObjectNode record = all.addObject();
      record.put("eventID", "e" + c.sequenceNumber());
      record.put("eventName", "MODIFY");
      record.put("eventVersion", "1.1");
      record.put("eventSource", "aws:dynamodb");
      record.put("awsRegion", "eu-west-1");
      ObjectNode dynamodb = record.putObject("dynamodb");
      dynamodb.put("ApproximateCreationDateTime", c.createdAt());
      dynamodb.putObject("Keys").putObject("pk").put("S", c.pk());
      ObjectNode image = dynamodb.putObject("NewImage");
      image.putObject("pk").put("S", c.pk());
      image.putObject("n").put("N", Long.toString(c.n()));
      dynamodb.put("SequenceNumber", c.sequenceNumber());
      dynamodb.put("SizeBytes", 59);
      dynamodb.put("StreamViewType", "NEW_IMAGE");
      record.put(
          "eventSourceARN",
          "arn:aws:dynamodb:" + ACCOUNT + ":table/" + table + "/stream/2024-01-01T00:00:00.000");
    }
    return event(all);
  }

  /** The item identifiers of an answer's {@code batchItemFailures}, in order. */
  static List<String> failures(byte[] answer) {
    try {
      JsonNode failures = JSON.readTree(answer).path("batchItemFailures");
      List<String> ids = new ArrayList<>();
      failures.forEach(f -> ids.add(f.path("itemIdentifier").asText()));
      return ids;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] event(ArrayNode records) {
    ObjectNode event = JSON.createObjectNode();
    event.set("Records", records);
    try {
      return JSON.writeValueAsBytes(event);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
