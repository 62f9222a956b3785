package dev.statekit.local;

import dev.statekit.aws.events.EventWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.model.Record;

/**
 * Records handed to a function as Lambda's Kinesis event source mapping hands a shard's records:
 * Kinesis events of up to {@link #BATCH} records and within Lambda's 6 MB payload, in order,
 * sequence numbers counting from 1. For records that are not on a stream (a file to replay, the
 * in-memory demo).
 */
final class KinesisFeed {
  /** Records per event: the template's {@code BatchSize} for the transactions stream. */
  static final int BATCH = 500;

  /** What an event's records may take, base64 and all, below Lambda's payload limit. */
  private static final long EVENT_BUDGET = LocalLambdaServer.MAX_PAYLOAD_BYTES - 64 * 1024;

  /** About the bytes a record takes in an event beside its data and partition key. */
  private static final int RECORD_OVERHEAD = 512;

  /**
   * One event and how many records it carries.
   *
   * @param payload the Kinesis event's JSON
   * @param records its records
   */
  record Event(byte[] payload, int records) {}

  private KinesisFeed() {}

  /** The events for {@code records} of shard {@code shardId} of {@code stream}. */
  static List<Event> events(List<byte[]> records, String stream, String shardId) {
    return events(records, stream, shardId, 0);
  }

  /**
   * As {@link #events(List, String, String)}, numbered after the {@code before} records the shard
   * already had.
   */
  static List<Event> events(List<byte[]> records, String stream, String shardId, long before) {
    String arn = "arn:aws:kinesis:us-east-1:000000000000:stream/" + stream;
    Instant now = Instant.now();
    List<Event> events = new ArrayList<>();
    List<Record> batch = new ArrayList<>();
    long bytes = 0;
    for (int i = 0; i < records.size(); i++) {
      byte[] data = records.get(i);
      String key = partitionKey(data);
      // The key as the event holds it: JSON-escaped UTF-8, up to six bytes a character.
      long keyBytes =
          dev.statekit.json.PlainJson.text(
                  com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.textNode(key))
              .getBytes(StandardCharsets.UTF_8)
              .length;
      long size = 4L * ((data.length + 2) / 3) + keyBytes + RECORD_OVERHEAD;
      if (!batch.isEmpty() && (batch.size() == BATCH || bytes + size > EVENT_BUDGET)) {
        events.add(new Event(EventWriter.kinesis(batch, shardId, arn, "us-east-1"), batch.size()));
        batch = new ArrayList<>();
        bytes = 0;
      }
      batch.add(
          Record.builder()
              .partitionKey(key)
              .sequenceNumber(Long.toString(before + i + 1))
              .data(SdkBytes.fromByteArray(data))
              .approximateArrivalTimestamp(now)
              .build());
      bytes += size;
    }
    if (!batch.isEmpty()) {
      events.add(new Event(EventWriter.kinesis(batch, shardId, arn, "us-east-1"), batch.size()));
    }
    return events;
  }

  /** The card, as producers key the transactions stream; "none" for records without one. */
  static String partitionKey(byte[] record) {
    String text = new String(record, StandardCharsets.UTF_8);
    int at = text.indexOf("\"card\":\"");
    if (at < 0) {
      return "none";
    }
    int start = at + 8;
    int end = text.indexOf('"', start);
    return end < 0 ? "none" : text.substring(start, end);
  }
}
