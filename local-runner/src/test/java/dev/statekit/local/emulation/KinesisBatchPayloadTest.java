package dev.statekit.local.emulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.GetRecordsRequest;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.kinesis.model.GetShardIteratorResponse;
import software.amazon.awssdk.services.kinesis.model.ListShardsRequest;
import software.amazon.awssdk.services.kinesis.model.ListShardsResponse;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.Shard;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * Lambda's Kinesis event source mapping invokes with a batch once it holds {@code BatchSize}
 * records, its batching window ends, or its payload reaches Lambda's 6 MB: a shard of large records
 * is handed over in several events, each within 6 MB. The serve's poller fills a batch by count
 * only, so 100 records of 100 KB (base64 in the event: 13 MB) went to the function as one event
 * that Lambda would never send, which the StateKit entry point refuses over its 8 MiB: the batch
 * fails on every retry locally where it is applied on Lambda.
 */
class KinesisBatchPayloadTest {
  private static final int LAMBDA_PAYLOAD = 6 * 1024 * 1024;

  /** One shard of {@code records}; an iterator is "at:N", the position of the next record. */
  private static KinesisClient shardOf(List<Record> records) {
    return new KinesisClient() {
      @Override
      public ListShardsResponse listShards(ListShardsRequest request) {
        return ListShardsResponse.builder()
            .shards(Shard.builder().shardId("shardId-000000000000").build())
            .build();
      }

      @Override
      public GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request) {
        int at = 0;
        if (request.shardIteratorType() == ShardIteratorType.AT_SEQUENCE_NUMBER) {
          at = -1;
          for (int i = 0; i < records.size(); i++) {
            if (records.get(i).sequenceNumber().equals(request.startingSequenceNumber())) {
              at = i;
            }
          }
          if (at < 0) {
            throw new IllegalArgumentException("no record " + request.startingSequenceNumber());
          }
        }
        return GetShardIteratorResponse.builder().shardIterator("at:" + at).build();
      }

      @Override
      public GetRecordsResponse getRecords(GetRecordsRequest request) {
        int from = Integer.parseInt(request.shardIterator().substring(3));
        int to = Math.min(records.size(), from + request.limit());
        return GetRecordsResponse.builder()
            .records(records.subList(from, to))
            .nextShardIterator("at:" + to)
            .millisBehindLatest(0L)
            .build();
      }

      @Override
      public String serviceName() {
        return "kinesis";
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void aBatchOfLargeRecordsIsCutWithinLambdasPayloadLimit() {
    List<Record> records = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      byte[] data = new byte[100 * 1024];
      Arrays.fill(data, (byte) ('a' + i % 26));
      records.add(
          Record.builder()
              .sequenceNumber(Long.toString(49_000_000_000L + i))
              .partitionKey("k" + i)
              .data(SdkBytes.fromByteArray(data))
              .approximateArrivalTimestamp(Instant.now())
              .build());
    }
    List<Integer> sizes = new ArrayList<>();
    List<String> delivered = new ArrayList<>();
    Invoker function =
        event -> {
          sizes.add(event.length);
          String text = new String(event, StandardCharsets.UTF_8);
          for (int at = text.indexOf("\"sequenceNumber\":\"");
              at >= 0;
              at = text.indexOf("\"sequenceNumber\":\"", at + 1)) {
            int start = at + "\"sequenceNumber\":\"".length();
            delivered.add(text.substring(start, text.indexOf('"', start)));
          }
          return "{\"batchItemFailures\":[]}".getBytes(StandardCharsets.UTF_8);
        };
    KinesisPoller poller =
        new KinesisPoller(
            shardOf(records),
            new KinesisPoller.Settings(
                "Transactions",
                "s",
                "arn:aws:kinesis:us-east-1:000000000000:stream/s",
                "us-east-1",
                500,
                0,
                false,
                true,
                -1,
                null),
            function,
            new Activity(new PrintWriter(new StringWriter())));

    for (int round = 0; round < 10 && delivered.size() < records.size(); round++) {
      poller.pollOnce();
    }

    assertEquals(
        records.stream().map(Record::sequenceNumber).toList(),
        delivered,
        "every record handed over once, in order");
    assertTrue(
        sizes.stream().allMatch(size -> size <= LAMBDA_PAYLOAD),
        "each event within Lambda's 6 MB, as the event source mapping cuts batches; sizes "
            + sizes);
  }
}
