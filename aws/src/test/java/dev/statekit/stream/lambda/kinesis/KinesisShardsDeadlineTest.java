package dev.statekit.stream.lambda.kinesis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.Deadline;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.KinesisRecord;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.InMemoryBatchStore;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ListShardsResponse;
import software.amazon.awssdk.services.kinesis.model.Shard;

/**
 * KinesisShards' consumer, the one a pipeline on a Kinesis stream is registered with, hands the
 * pipeline the invocation's deadline the entry point gives it. It wrapped the pipeline's consumer
 * in a consumer of records only, so the deadline went no further: a batch longer than the
 * function's timeout was cut off by Lambda before its checkpoint on every try. Schedule: two
 * records, a deadline already passed; expected: the batch takes its first record and answers the
 * second as failed, for Lambda to hand over again.
 */
class KinesisShardsDeadlineTest {
  @Test
  void theConsumerPassesTheDeadlineToThePipeline() throws Exception {
    KinesisClient kinesis =
        (KinesisClient)
            Proxy.newProxyInstance(
                KinesisClient.class.getClassLoader(),
                new Class<?>[] {KinesisClient.class},
                (proxy, method, args) -> {
                  if (!method.getName().equals("listShards")) {
                    throw new UnsupportedOperationException(method.getName());
                  }
                  return ListShardsResponse.builder()
                      .shards(Shard.builder().shardId("shardId-000000000000").build())
                      .build();
                });
    BatchPipeline pipeline =
        BatchPipeline.builder(
                "deadline",
                Pipeline.from(BatchSource.records())
                    .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
                    .to(
                        EgressOutput.to(
                            records -> {}, TypeName.of("test", "out"), Types.stringType())))
            .store(new InMemoryBatchStore())
            .build();
    List<KinesisRecord> records =
        List.of(
            record("49590338271490256608559692538361571095921575989136588898"),
            record("49590338271490256608559692538361571095921575989136588900"));

    BatchOutcome outcome =
        new KinesisShards(kinesis, "clicks", pipeline)
            .kinesisConsumer()
            .accept(records, Deadline.after(Duration.ZERO));

    assertEquals(
        List.of("49590338271490256608559692538361571095921575989136588900"),
        outcome.failedItemIds(),
        "with no time left the batch takes its first record and hands the second back");
  }

  private static KinesisRecord record(String sequenceNumber) {
    return new KinesisRecord(
        "clicks",
        "shardId-000000000000",
        sequenceNumber,
        "p",
        "x".getBytes(StandardCharsets.UTF_8),
        Instant.ofEpochSecond(1_700_000_000));
  }
}
