package dev.statekit.entry;

import java.nio.charset.StandardCharsets;

/** Small hand-written Lambda events, in the shapes Lambda sends. */
final class Events {
  private Events() {}

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] sqs(String queue, String... ids) {
    StringBuilder records = new StringBuilder();
    for (int i = 0; i < ids.length; i++) {
      records
          .append(i == 0 ? "" : ",")
          .append("{\"messageId\":\"")
          .append(ids[i])
          .append("\",\"body\":\"body-")
          .append(ids[i])
          .append("\",\"attributes\":{\"MessageGroupId\":\"g\",\"SequenceNumber\":\"")
          .append(100 + i)
          .append("\",\"ApproximateReceiveCount\":\"2\",\"SentTimestamp\":\"1700000000000\"},")
          .append(
              "\"messageAttributes\":{\"kind\":{\"stringValue\":\"test\",\"dataType\":\"String\"}},")
          .append(
              "\"eventSource\":\"aws:sqs\",\"eventSourceARN\":\"arn:aws:sqs:eu-west-1:123456789012:")
          .append(queue)
          .append("\",\"awsRegion\":\"eu-west-1\"}");
    }
    return utf8("{\"Records\":[" + records + "]}");
  }

  static byte[] kinesis(String stream, String... sequenceNumbers) {
    StringBuilder records = new StringBuilder();
    for (int i = 0; i < sequenceNumbers.length; i++) {
      records
          .append(i == 0 ? "" : ",")
          .append("{\"kinesis\":{\"kinesisSchemaVersion\":\"1.0\",\"partitionKey\":\"card-1\",")
          .append("\"sequenceNumber\":\"")
          .append(sequenceNumbers[i])
          .append("\",\"data\":\"aGVsbG8=\",\"approximateArrivalTimestamp\":1700000000.25},")
          .append("\"eventSource\":\"aws:kinesis\",\"eventVersion\":\"1.0\",")
          .append("\"eventID\":\"shardId-000000000003:")
          .append(sequenceNumbers[i])
          .append("\",\"eventName\":\"aws:kinesis:record\",")
          .append("\"eventSourceARN\":\"arn:aws:kinesis:eu-west-1:123456789012:stream/")
          .append(stream)
          .append("\"}");
    }
    return utf8("{\"Records\":[" + records + "]}");
  }

  static byte[] dynamoDb(String table) {
    return utf8(
        "{\"Records\":[{\"eventID\":\"e1\",\"eventName\":\"MODIFY\",\"eventVersion\":\"1.1\","
            + "\"eventSource\":\"aws:dynamodb\",\"awsRegion\":\"eu-west-1\",\"dynamodb\":{"
            + "\"ApproximateCreationDateTime\":1700000000,"
            + "\"Keys\":{\"pk\":{\"S\":\"order#1\"},\"sk\":{\"S\":\"v\"}},"
            + "\"NewImage\":{\"pk\":{\"S\":\"order#1\"},\"n\":{\"N\":\"2\"},\"tags\":{\"SS\":[\"a\",\"b\"]},"
            + "\"m\":{\"M\":{\"ok\":{\"BOOL\":true},\"l\":{\"L\":[{\"NULL\":true},{\"B\":\"AQI=\"}]}}}},"
            + "\"OldImage\":{\"pk\":{\"S\":\"order#1\"},\"n\":{\"N\":\"1\"}},"
            + "\"SequenceNumber\":\"4421584500000000017450439091\",\"SizeBytes\":59,"
            + "\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"},"
            + "\"eventSourceARN\":\"arn:aws:dynamodb:eu-west-1:123456789012:table/"
            + table
            + "/stream/2024-01-01T00:00:00.000\"}]}");
  }

  static byte[] scheduled() {
    return utf8(
        "{\"version\":\"0\",\"id\":\"53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa\","
            + "\"detail-type\":\"Scheduled Event\",\"source\":\"aws.events\","
            + "\"account\":\"123456789012\",\"time\":\"2024-03-12T10:15:00Z\",\"region\":\"eu-west-1\","
            + "\"resources\":[\"arn:aws:events:eu-west-1:123456789012:rule/tick\"],\"detail\":{}}");
  }
}
