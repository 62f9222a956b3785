package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.aws.kinesis.KinesisEgressSink;
import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.testing.ManualClock;
import dev.statekit.testservers.RealServers;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A sink that can deliver nothing (misconfigured) fails the batch even with a place for refused
 * outputs, naming no record: a missing queue, and a Kinesis sink without a default stream (a
 * pipeline's records name none). The latter named each record, so every output was set aside and
 * every batch checkpointed. Against ElasticMQ and kinesalite.
 */
@ExtendWith(RealServers.class)
class MisconfiguredSinkIT {
  private static final String SHARD = "orders/shardId-000000000000";

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final CollectingEgressSink place = new CollectingEgressSink();

  private BatchPipeline pipeline(EgressSink output) {
    Pipeline p =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8))
            .to(EgressOutput.to(output, TypeName.of("test", "out"), Types.stringType()));
    BatchPipeline pipeline =
        BatchPipeline.builder("review-" + System.nanoTime(), p)
            .store(new InMemoryBatchStore())
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .refusedOutputsTo(place)
            .build();
    pipeline.registerSplits(List.of(SHARD));
    return pipeline;
  }

  private static SourceBatch batch() {
    return SourceBatch.ordered(SHARD)
        .add("1000", 0, "a".getBytes(StandardCharsets.UTF_8))
        .add("1001", 0, "b".getBytes(StandardCharsets.UTF_8))
        .build();
  }

  @Test
  void aMissingQueueFailsTheBatch(SqsClient sqs) {
    String name = "review-" + System.nanoTime();
    String missing =
        sqs.createQueue(b -> b.queueName(name)).queueUrl().replace(name, name + "-missing");
    assertThrows(
        RuntimeException.class, () -> pipeline(new SqsEgressSink(sqs, missing)).process(batch()));
    assertEquals(0, place.records().size());
  }

  @Test
  void aKinesisSinkWithoutAStreamFailsTheBatchLikeAMissingQueue(KinesisClient kinesis) {
    BatchPipeline pipeline = pipeline(new KinesisEgressSink(kinesis, null));

    RuntimeException failed = null;
    BatchResult result = null;
    try {
      result = pipeline.process(batch());
    } catch (RuntimeException e) {
      failed = e;
    }

    assertEquals(
        0,
        place.records().size(),
        "every output of the batch was set aside as refused, result "
            + result
            + ", failure "
            + failed);
  }
}
