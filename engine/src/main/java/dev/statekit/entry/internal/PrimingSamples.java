package dev.statekit.entry.internal;

/**
 * One small payload of each JSON shape, parsed before a SnapStart snapshot so that the classes
 * every shape needs are loaded and initialised in the snapshot rather than on the first invocation.
 */
public final class PrimingSamples {
  private PrimingSamples() {}

  /**
   * The samples: HTTP (a GET, answered 405 without running a function), SQS, Kinesis, DynamoDB,
   * schedule.
   */
  public static final String[] JSON = {
    "{\"version\":\"2.0\",\"rawPath\":\"/\",\"headers\":{},\"requestContext\":{\"http\":"
        + "{\"method\":\"GET\",\"path\":\"/\"}},\"isBase64Encoded\":false}",
    "{\"Records\":[{\"messageId\":\"m\",\"body\":\"{}\",\"attributes\":{\"MessageGroupId\":\"g\","
        + "\"SequenceNumber\":\"1\",\"ApproximateReceiveCount\":\"1\",\"SentTimestamp\":\"0\"},"
        + "\"messageAttributes\":{},\"eventSource\":\"aws:sqs\","
        + "\"eventSourceARN\":\"arn:aws:sqs:us-east-1:000000000000:q.fifo\"}]}",
    "{\"Records\":[{\"kinesis\":{\"partitionKey\":\"k\",\"sequenceNumber\":\"1\",\"data\":\"e30=\","
        + "\"approximateArrivalTimestamp\":0.0},\"eventSource\":\"aws:kinesis\","
        + "\"eventID\":\"shardId-000000000000:1\","
        + "\"eventSourceARN\":\"arn:aws:kinesis:us-east-1:000000000000:stream/s\"}]}",
    "{\"Records\":[{\"eventID\":\"e\",\"eventName\":\"INSERT\",\"eventSource\":\"aws:dynamodb\","
        + "\"dynamodb\":{\"ApproximateCreationDateTime\":0,\"Keys\":{\"pk\":{\"S\":\"a\"}},"
        + "\"NewImage\":{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"1\"}},\"SequenceNumber\":\"1\"},"
        + "\"eventSourceARN\":\"arn:aws:dynamodb:us-east-1:000000000000:table/tbl/stream/x\"}]}",
    "{\"id\":\"e\",\"detail-type\":\"Scheduled Event\",\"source\":\"aws.events\","
        + "\"time\":\"2024-01-01T00:00:00Z\",\"resources\":[],\"detail\":{}}"
  };
}
