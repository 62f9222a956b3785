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
 * Kinesis events of up to {@link #BATCH} records, in order, sequence numbers counting from 1. For
 * records that are not on a stream (a file to replay, the in-memory demo).
 */
final class KinesisFeed {
  /** Records per event: the template's {@code BatchSize} for the transactions stream. */
  static final int BATCH = 500;

  private KinesisFeed() {}

  /** The events for {@code records} of shard {@code shardId} of {@code stream}. */
  static List<byte[]> events(List<byte[]> records, String stream, String shardId) {
    String arn = "arn:aws:kinesis:us-east-1:000000000000:stream/" + stream;
    Instant now = Instant.now();
    List<byte[]> events = new ArrayList<>();
    for (int from = 0; from < records.size(); from += BATCH) {
      List<Record> batch = new ArrayList<>();
      for (int i = from; i < Math.min(records.size(), from + BATCH); i++) {
        byte[] data = records.get(i);
        batch.add(
            Record.builder()
                .partitionKey(partitionKey(data))
                .sequenceNumber(Integer.toString(i + 1))
                .data(SdkBytes.fromByteArray(data))
                .approximateArrivalTimestamp(now)
                .build());
      }
      events.add(EventWriter.kinesis(batch, shardId, arn, "us-east-1"));
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
