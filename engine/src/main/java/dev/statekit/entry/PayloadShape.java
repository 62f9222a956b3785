package dev.statekit.entry;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The payloads the entry point accepts, each told apart by a few fields; {@link #describe()} is how
 * error messages name them.
 */
public enum PayloadShape {
  /** The protobuf bytes of a StateFun {@code ToFunction}, as a StateFun runtime's direct invoke. */
  TO_FUNCTION(
      "a StateFun ToFunction (protobuf bytes starting a2 06), from a runtime's direct invoke"),
  /** A Function URL, API Gateway HTTP API (2.0) or REST API (1.0) event with a ToFunction body. */
  HTTP_EVENT(
      "a Function URL or API Gateway HTTP event (requestContext.http.method or httpMethod)"
          + " whose body is a ToFunction"),
  /** One ingress envelope {@code {"target": "ns/type/id", "typename": ..., "value": ...}}. */
  ENVELOPE(
      "an ingress envelope {\"target\": \"ns/type/id\", \"typename\": \"...\", \"value\": ...,"
          + " \"id\": \"optional idempotency key\"}"),
  /** A JSON array of ingress envelopes. */
  ENVELOPE_BATCH("a JSON array of ingress envelopes"),
  /** An SQS event: {@code Records[].eventSource} is {@code aws:sqs}. */
  SQS("an SQS event (Records[].eventSource \"aws:sqs\")"),
  /** A Kinesis event: {@code Records[].eventSource} is {@code aws:kinesis}. */
  KINESIS("a Kinesis event (Records[].eventSource \"aws:kinesis\")"),
  /** A DynamoDB Streams event: {@code Records[].eventSource} is {@code aws:dynamodb}. */
  DYNAMODB_STREAM("a DynamoDB Streams event (Records[].eventSource \"aws:dynamodb\")"),
  /** An EventBridge scheduled event: {@code detail-type} is {@code Scheduled Event}. */
  SCHEDULED("an EventBridge scheduled event (\"detail-type\": \"Scheduled Event\")");

  private final String description;

  PayloadShape(String description) {
    this.description = description;
  }

  /** How messages name this shape: what it is and the fields that give it away. */
  public String describe() {
    return description;
  }

  /**
   * The shape of a JSON payload, or {@code null} if it is none of them. {@link #TO_FUNCTION} is
   * never JSON: tell it from the bytes with {@code PayloadKind}.
   */
  public static PayloadShape of(JsonNode json) {
    if (json == null) {
      return null;
    }
    if (json.isArray()) {
      // No other payload is an array: its elements are envelopes, and one that is malformed is
      // rejected by name in the answer while the others are applied (never the whole array refused
      // for one, which Lambda's retries would refuse the same way until the good ones are dropped).
      return json.isEmpty() ? null : ENVELOPE_BATCH;
    }
    if (!json.isObject()) {
      return null;
    }
    if (json.path("requestContext").path("http").hasNonNull("method")
        || json.hasNonNull("httpMethod")) {
      return HTTP_EVENT;
    }
    JsonNode records = json.get("Records");
    if (records != null && records.isArray() && !records.isEmpty()) {
      return switch (eventSource(records.get(0))) {
        case "aws:sqs" -> SQS;
        case "aws:kinesis" -> KINESIS;
        case "aws:dynamodb" -> DYNAMODB_STREAM;
        default -> null;
      };
    }
    if ("Scheduled Event".equals(json.path("detail-type").asText(null))) {
      return SCHEDULED;
    }
    // Any object naming a target is meant as an envelope: one whose fields are wrong gets the
    // envelope reader's error saying which, not that the payload matches nothing.
    return json.has("target") ? ENVELOPE : null;
  }

  /** SQS spells the field {@code eventSource}; Kinesis and DynamoDB do too, S3 as well. */
  static String eventSource(JsonNode record) {
    String source = record.path("eventSource").asText("");
    return source.isEmpty() ? record.path("EventSource").asText("") : source;
  }
}
