package dev.statekit.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.aws.events.EventWriter;
import dev.statekit.entry.EntryPoint;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.KinesisRecord;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestStreams;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * A stream takes a record with an empty data blob (the Kinesis API allows Data of length 0), and
 * the event Lambda builds from its shard carries it as {@code "data": ""}: the entry point hands it
 * on with the others. It refused the whole event, so every record of the batch failed with it, on
 * every retry, until the event source mapping gave up on the batch.
 */
@ExtendWith(RealServers.class)
class KinesisRecordWithNoBytesIT {

  @Test
  void aBatchHoldingARecordPutWithNoBytesReachesTheConsumer(KinesisClient kinesis)
      throws Exception {
    String stream = "empty-" + Long.toHexString(System.nanoTime());
    TestStreams.create(kinesis, stream, 1);
    String shard = kinesis.listShards(b -> b.streamName(stream)).shards().get(0).shardId();
    for (String data : List.of("first", "", "third")) {
      kinesis.putRecord(
          b ->
              b.streamName(stream)
                  .partitionKey("k")
                  .data(SdkBytes.fromString(data, StandardCharsets.UTF_8)));
    }
    String iterator =
        kinesis
            .getShardIterator(
                b ->
                    b.streamName(stream)
                        .shardId(shard)
                        .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
            .shardIterator();
    List<Record> records = kinesis.getRecords(b -> b.shardIterator(iterator)).records();
    assertEquals(3, records.size(), "the stream holds the three records, the empty one included");

    String arn = "arn:aws:kinesis:us-east-1:000000000000:stream/" + stream;
    List<KinesisRecord> seen = new ArrayList<>();
    EntryPoint entry =
        EntryPoint.builder()
            .kinesisStream(
                arn,
                batch -> {
                  seen.addAll(batch);
                  return BatchOutcome.allSucceeded();
                })
            .build();

    byte[] answer = entry.invoke(EventWriter.kinesis(records, shard, arn, "us-east-1"));

    assertEquals("{\"batchItemFailures\":[]}", new String(answer, StandardCharsets.UTF_8));
    assertEquals(3, seen.size());
  }
}
