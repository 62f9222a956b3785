package dev.statekit.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.ScheduledEvent;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.InMemoryBatchStore;
import dev.statekit.stream.lambda.kinesis.KinesisShards;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestStreams;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.Shard;

/**
 * Shards registered from ListShards on kinesalite: the first batch of one shard registers its
 * sibling, so no window fires before the sibling's first batch; a reshard's new shards are
 * registered by the next tick.
 */
@ExtendWith(RealServers.class)
class KinesisShardsIT {
  private final CollectingEgressSink results = new CollectingEgressSink();

  private BatchPipeline pipeline() {
    Pipeline counts =
        Pipeline.from(BatchSource.records())
            .decode(Serdes.json(Long.class))
            .withWatermarks(
                WatermarkStrategy.<Long>boundedOutOfOrderness(Duration.ZERO)
                    .withTimestamps(t -> t)
                    .withIdleTimeout(Duration.ofHours(1)))
            .keyBy(t -> "all")
            .window(Windows.tumbling(Duration.ofSeconds(1)))
            .aggregate(
                AggregateFunction.<Long>count(),
                Serdes.longs(),
                (String key, TimeWindow w, Long n) -> w.start() + "=" + n)
            .to(EgressOutput.to(results, TypeName.of("test", "counts"), Types.stringType()));
    return BatchPipeline.builder("counts", counts).store(new InMemoryBatchStore()).build();
  }

  @Test
  void noWindowFiresBeforeEveryListedShardHadABatch(KinesisClient kinesis) throws Exception {
    String stream = stream(kinesis, 2);
    List<String> shardIds = shardIds(kinesis, stream);
    KinesisShards shards = new KinesisShards(kinesis, stream, pipeline());

    shards.kinesisConsumer().accept(batch(stream, shardIds.get(0), 1_000, 5_000));
    assertEquals(List.of(), results.texts(), "the other shard has had no batch yet");

    shards.kinesisConsumer().accept(batch(stream, shardIds.get(1), 1_200, 6_000));
    assertEquals(List.of("1000=2"), results.texts(), "both shards' records, once both are in");

    // Without the listing, the first shard's batch fires its window alone, and misses a record.
    results.clear();
    pipeline().kinesisConsumer().accept(batch(stream, shardIds.get(0), 1_000, 5_000));
    assertEquals(List.of("1000=1"), results.texts());
  }

  @Test
  void theTickRegistersTheShardsOfAReshard(KinesisClient kinesis) throws Exception {
    String stream = stream(kinesis, 1);
    BatchPipeline pipeline = pipeline();
    KinesisShards shards = new KinesisShards(kinesis, stream, pipeline);
    String parent = shardIds(kinesis, stream).get(0);
    assertEquals(List.of(stream + "/" + parent), shards.register());

    Shard shard = kinesis.listShards(b -> b.streamName(stream)).shards().get(0);
    BigInteger end = new BigInteger(shard.hashKeyRange().endingHashKey());
    kinesis.splitShard(
        b ->
            b.streamName(stream)
                .shardToSplit(parent)
                .newStartingHashKey(end.shiftRight(1).toString()));
    TestStreams.awaitActive(kinesis, stream);
    List<String> children = new ArrayList<>(shardIds(kinesis, stream));
    children.remove(parent);
    assertEquals(2, children.size(), "kinesalite split the shard: " + children);

    shards.tickTask().run(new ScheduledEvent("tick", Instant.now(), List.of()));

    List<String> childSplits = children.stream().map(id -> stream + "/" + id).toList();
    assertEquals(List.of(), pipeline.registerSplits(childSplits), "the tick registered them");
    assertEquals(List.of(), shards.register(), "and lists nothing new again");
  }

  /**
   * A stream given by ARN is listed by its ARN on AWS (a bare name means the caller's account); an
   * emulator that takes no ARN in ListShards (kinesalite) is asked by name instead.
   */
  @Test
  void aStreamGivenByArnIsListedWhereListShardsTakesNoArn(KinesisClient kinesis) throws Exception {
    String stream = stream(kinesis, 1);
    String arn =
        kinesis
            .describeStreamSummary(b -> b.streamName(stream))
            .streamDescriptionSummary()
            .streamARN();
    KinesisShards shards = new KinesisShards(kinesis, arn, pipeline());
    assertEquals(List.of(stream + "/" + shardIds(kinesis, stream).get(0)), shards.register());
    assertEquals(List.of(), shards.register(), "listed again, by name, nothing new");
  }

  @Test
  void aStreamThatCannotBeListedStillHasItsBatchAppliedAndTheListingSaysWhatToGrant(
      KinesisClient kinesis) throws Exception {
    KinesisShards shards = new KinesisShards(kinesis, "no-such-stream", pipeline());

    BatchOutcome outcome =
        shards.kinesisConsumer().accept(batch("no-such-stream", "shardId-0", 1_000, 2_500));

    assertEquals(List.of(), outcome.failedItemIds(), "the batch is not failed for the listing");
    assertEquals(List.of("1000=1"), results.texts(), "its records were applied: a window fired");
    var e = assertThrows(IllegalStateException.class, shards::register);
    assertTrue(e.getMessage().contains("kinesis:ListShards"), e.getMessage());
  }

  private static List<KinesisRecord> batch(String stream, String shard, long... times) {
    List<KinesisRecord> records = new ArrayList<>();
    for (int i = 0; i < times.length; i++) {
      records.add(
          new KinesisRecord(
              stream,
              shard,
              Integer.toString(i + 1),
              "k",
              Long.toString(times[i]).getBytes(StandardCharsets.UTF_8),
              Instant.ofEpochMilli(times[i])));
    }
    return records;
  }

  private static String stream(KinesisClient kinesis, int shards) throws InterruptedException {
    String stream = "shards-" + Long.toHexString(System.nanoTime());
    TestStreams.create(kinesis, stream, shards);
    return stream;
  }

  private static List<String> shardIds(KinesisClient kinesis, String stream) {
    return kinesis.listShards(b -> b.streamName(stream)).shards().stream()
        .map(Shard::shardId)
        .toList();
  }
}
