package dev.statekit.stream.lambda.kinesis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.InMemoryBatchStore;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ListShardsRequest;
import software.amazon.awssdk.services.kinesis.model.ListShardsResponse;
import software.amazon.awssdk.services.kinesis.model.Shard;

/**
 * Limit/fact (Kinesis API reference, ListShards: StreamName names a stream of the caller's account
 * and region, StreamARN any stream the caller may read; Lambda developer guide, "Creating a
 * cross-account event source mapping": a function can read a Kinesis stream of another account
 * through the stream's resource-based policy). docs/pipelines.md tells users to "declare a stream
 * by its ARN when another account or region has one of that name".
 *
 * <p>KinesisShards reduces the ARN it is given to the bare name (KinesisRecord.streamName) and
 * lists {@code StreamName=clicks}: for a stream of account 111122223333 read by a function of
 * another account, that asks the function's own account. There it fails (ResourceNotFound: every
 * tick fails, and a reshard's children are never registered before their first batch, so windows
 * fire without them) or, worse, lists an unrelated stream of that name whose shard ids are
 * registered as splits of the pipeline (splits are {@code name/shardId}): splits that never get a
 * batch hold the pipeline's windows until the idle timeout.
 *
 * <p>Schedule: KinesisShards built on a stream ARN of another account; one register(). Expected:
 * the ListShards request names the stream by that ARN.
 */
class KinesisShardsCrossAccountArnTest {
  private static final String ARN = "arn:aws:kinesis:us-east-1:111122223333:stream/clicks";

  @Test
  void aStreamGivenByArnIsListedByThatArn() {
    List<ListShardsRequest> requests = new ArrayList<>();
    KinesisClient kinesis =
        (KinesisClient)
            Proxy.newProxyInstance(
                KinesisClient.class.getClassLoader(),
                new Class<?>[] {KinesisClient.class},
                (proxy, method, args) -> {
                  if (!method.getName().equals("listShards")) {
                    throw new UnsupportedOperationException(method.getName());
                  }
                  ListShardsRequest request =
                      args[0] instanceof ListShardsRequest r
                          ? r
                          : ListShardsRequest.builder().applyMutation(consumer(args[0])).build();
                  requests.add(request);
                  return ListShardsResponse.builder()
                      .shards(Shard.builder().shardId("shardId-000000000000").build())
                      .build();
                });

    new KinesisShards(kinesis, ARN, pipeline()).register();

    assertEquals(1, requests.size());
    assertEquals(
        ARN,
        requests.get(0).streamARN(),
        "ListShards for a stream given by ARN (another account's) must name it by that ARN; the"
            + " request was "
            + requests.get(0));
  }

  private static BatchPipeline pipeline() {
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
            .to(
                EgressOutput.to(
                    new CollectingEgressSink(), TypeName.of("test", "counts"), Types.stringType()));
    return BatchPipeline.builder("counts", counts).store(new InMemoryBatchStore()).build();
  }

  @SuppressWarnings("unchecked")
  private static Consumer<ListShardsRequest.Builder> consumer(Object consumer) {
    return (Consumer<ListShardsRequest.Builder>) consumer;
  }
}
