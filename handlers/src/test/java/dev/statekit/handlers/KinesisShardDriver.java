package dev.statekit.handlers;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.aws.events.EventWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * What Lambda's Kinesis event source mapping does, small: reads every shard of a stream with
 * GetShardIterator and GetRecords, hands each batch to the handler as a Kinesis event (JSON, as
 * Lambda sends it), and on a {@code batchItemFailures} answer reads the shard again from the failed
 * sequence number. Shards take turns, one batch each, as concurrent invocations would interleave.
 */
final class KinesisShardDriver {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KinesisClient kinesis;
  private final String stream;
  private final String streamArn;
  private final StateKitHandler handler;
  private final int batchSize;

  /** Batches handed over, retries after a partial failure, and records handed over again. */
  int batches;

  int retries;
  int redelivered;

  KinesisShardDriver(KinesisClient kinesis, String stream, StateKitHandler handler, int batchSize) {
    this.kinesis = kinesis;
    this.stream = stream;
    this.streamArn =
        kinesis
            .describeStreamSummary(b -> b.streamName(stream))
            .streamDescriptionSummary()
            .streamARN();
    this.handler = handler;
    this.batchSize = batchSize;
  }

  /** The stream's shard ids. */
  List<String> shards() {
    return kinesis.listShards(b -> b.streamName(stream)).shards().stream()
        .map(s -> s.shardId())
        .toList();
  }

  /**
   * Reads every shard to its end, handing batches over until none has records left. Every batch in
   * {@code deliverTwice} (by its count, from 1) is handed over a second time, as Lambda does after
   * a timeout whose work in fact completed.
   */
  void drain(List<Integer> deliverTwice) throws IOException {
    Map<String, String> iterators = new LinkedHashMap<>();
    for (String shard : shards()) {
      iterators.put(
          shard,
          kinesis
              .getShardIterator(
                  b ->
                      b.streamName(stream)
                          .shardId(shard)
                          .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
              .shardIterator());
    }
    boolean any = true;
    while (any) {
      any = false;
      for (Map.Entry<String, String> shard : iterators.entrySet()) {
        GetRecordsResponse read =
            kinesis.getRecords(b -> b.shardIterator(shard.getValue()).limit(batchSize));
        if (read.records().isEmpty()) {
          continue;
        }
        any = true;
        byte[] event = EventWriter.kinesis(read.records(), shard.getKey(), streamArn, "us-east-1");
        List<String> failed = invoke(event);
        if (deliverTwice.contains(batches)) {
          redelivered += read.records().size();
          invoke(event);
        }
        if (failed.isEmpty()) {
          shard.setValue(read.nextShardIterator());
        } else {
          retries++;
          shard.setValue(
              kinesis
                  .getShardIterator(
                      b ->
                          b.streamName(stream)
                              .shardId(shard.getKey())
                              .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER)
                              .startingSequenceNumber(failed.get(0)))
                  .shardIterator());
        }
      }
    }
  }

  private List<String> invoke(byte[] event) throws IOException {
    batches++;
    ByteArrayOutputStream answer = new ByteArrayOutputStream();
    handler.handleRequest(new ByteArrayInputStream(event), answer, null);
    List<String> failed = EventWriter.batchItemFailures(answer.toByteArray());
    return failed == null ? List.of() : failed;
  }
}
