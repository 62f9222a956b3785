package dev.statekit.event;

import java.time.Instant;
import java.util.Objects;

/**
 * One record of a Kinesis event.
 *
 * @param streamName the stream it came from (from {@code eventSourceARN})
 * @param shardId the shard (from {@code eventID}, {@code shardId-...:sequence})
 * @param sequenceNumber the record's sequence number in its shard (decimal, up to 128 digits); a
 *     failure is answered with it and Lambda retries from there
 * @param partitionKey the partition key the producer chose
 * @param data the record's bytes (decoded from the event's base64)
 * @param arrivedAt when Kinesis accepted the record
 */
public record KinesisRecord(
    String streamName,
    String shardId,
    String sequenceNumber,
    String partitionKey,
    byte[] data,
    Instant arrivedAt) {
  /** Checks the parts. */
  public KinesisRecord {
    Objects.requireNonNull(streamName, "streamName");
    Objects.requireNonNull(shardId, "shardId");
    Objects.requireNonNull(sequenceNumber, "sequenceNumber");
    Objects.requireNonNull(partitionKey, "partitionKey");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(arrivedAt, "arrivedAt");
  }

  /**
   * The name of a stream given by name or ARN ({@code arn:aws:kinesis:region:account:stream/name},
   * or a consumer's ARN under it).
   */
  public static String streamName(String nameOrArn) {
    Objects.requireNonNull(nameOrArn, "stream");
    String s = nameOrArn.trim();
    int stream = s.indexOf(":stream/");
    if (!s.startsWith("arn:") || stream < 0) {
      return s;
    }
    String rest = s.substring(stream + ":stream/".length());
    int slash = rest.indexOf('/');
    return slash < 0 ? rest : rest.substring(0, slash);
  }

  @Override
  public String toString() {
    return "KinesisRecord["
        + streamName
        + "/"
        + shardId
        + "@"
        + sequenceNumber
        + ", key "
        + partitionKey
        + ", "
        + data.length
        + " bytes]";
  }
}
