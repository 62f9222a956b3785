package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.aws.kinesis.KinesisEgressSink;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestStreams;
import dev.statekit.types.TypeName;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequest;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequestEntry;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResultEntry;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * Limit (Kinesis API reference, PutRecords): "A single record failure does not stop the processing
 * of subsequent records"; a throttled entry is answered with ErrorCode
 * ProvisionedThroughputExceededException while the request's other entries are written. The runtime
 * promises each egress record delivered once unless it "cannot know that a delivery finished" (a
 * crash); the runtime records per record which went out (Undelivered.egress(index)).
 *
 * <p>Schedule (no crash, no lost answer, on kinesalite): one message makes an address emit two
 * records, "one" and "two", to a KinesisEgressSink. The shard is hot during the first delivery:
 * every PutRecords answers "one" throttled and writes "two". After the sink's attempts the sink
 * throws one EgressException naming no record (KinesisEgressSink.put: "Kinesis kept refusing 1
 * records"), so the runtime counts BOTH records undelivered; the shard cools; the sweep delivers
 * the outbox again and "two", already written, is written a second time. Users reading the stream
 * see a record twice without any crash, every time a hot shard outlasts the sink's retries.
 */
@ExtendWith(RealServers.class)
class KinesisThrottledEgressRepeatsWrittenRecordsIT extends RuntimeFixture {
  static final TypeName TWO_RECORDS = TypeName.of("review", "two-records");

  static void twoRecords(Context context, Message message) {
    context.send(EgressMessageBuilder.forEgress(TestFunctions.COUNTED).withValue("one").build());
    context.send(EgressMessageBuilder.forEgress(TestFunctions.COUNTED).withValue("two").build());
  }

  @Test
  void aRecordWrittenBesideAThrottledOneIsNotWrittenAgain(KinesisClient kinesis) throws Exception {
    String stream = "throttled-" + UUID.randomUUID().toString().substring(0, 8);
    TestStreams.create(kinesis, stream, 1);
    AtomicBoolean hot = new AtomicBoolean(true);
    KinesisClient throttling = throttlingOne(kinesis, hot);
    RetryPolicy fast =
        RetryPolicy.builder()
            .maxAttempts(3)
            .baseDelay(Duration.ZERO)
            .maxDelay(Duration.ZERO)
            .build();
    FunctionRuntime runtime =
        runtime(
            b ->
                b.maxAttempts(5)
                    .egress(
                        EgressRoutes.builder()
                            .route(
                                TestFunctions.COUNTED,
                                new KinesisEgressSink(throttling, stream, fast))
                            .build()),
            StatefulFunctions.builder()
                .withFunction(
                    TWO_RECORDS, KinesisThrottledEgressRepeatsWrittenRecordsIT::twoRecords)
                .build());
    Address a = address(TWO_RECORDS, "a");
    enqueue(MessageBuilder.forAddress(a).withValue("go").build());
    LambdaLikeWorker.pollOnce(queue(), runtime);
    hot.set(false);
    for (int round = 0; round < 3; round++) {
      clock.advance(Duration.ofMinutes(3));
      runtime.sweepTimers();
      drain(runtime);
    }

    assertEquals(0, outboxesLeftLater(runtime), "the outbox is delivered once the shard cools");
    List<String> onStream = read(kinesis, stream);
    assertEquals(
        1,
        onStream.stream().filter("two"::equals).count(),
        "copies of record \"two\", written by the first delivery beside the throttled \"one\";"
            + " the stream holds "
            + onStream);
  }

  /** While {@code hot}, answers the entry whose data is "one" throttled and writes the others. */
  private static KinesisClient throttlingOne(KinesisClient real, AtomicBoolean hot) {
    return (KinesisClient)
        Proxy.newProxyInstance(
            KinesisClient.class.getClassLoader(),
            new Class<?>[] {KinesisClient.class},
            (proxy, method, args) -> {
              if (method.getName().equals("putRecords") && args != null && args.length == 1) {
                PutRecordsRequest request =
                    args[0] instanceof PutRecordsRequest r
                        ? r
                        : PutRecordsRequest.builder().applyMutation(consumer(args[0])).build();
                if (!hot.get()) {
                  return real.putRecords(request);
                }
                List<PutRecordsResultEntry> results = new ArrayList<>();
                int failed = 0;
                for (PutRecordsRequestEntry entry : request.records()) {
                  if (entry.data().asUtf8String().endsWith("one")) {
                    failed++;
                    results.add(
                        PutRecordsResultEntry.builder()
                            .errorCode("ProvisionedThroughputExceededException")
                            .errorMessage("Rate exceeded for shard (simulated hot shard)")
                            .build());
                  } else {
                    results.addAll(
                        real.putRecords(request.toBuilder().records(entry).build()).records());
                  }
                }
                return PutRecordsResponse.builder()
                    .failedRecordCount(failed)
                    .records(results)
                    .build();
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @SuppressWarnings("unchecked")
  private static Consumer<PutRecordsRequest.Builder> consumer(Object consumer) {
    return (Consumer<PutRecordsRequest.Builder>) consumer;
  }

  private static List<String> read(KinesisClient kinesis, String stream) {
    String shard = kinesis.listShards(b -> b.streamName(stream)).shards().get(0).shardId();
    String iterator =
        kinesis
            .getShardIterator(
                b ->
                    b.streamName(stream)
                        .shardId(shard)
                        .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
            .shardIterator();
    return kinesis.getRecords(b -> b.shardIterator(iterator)).records().stream()
        .map(r -> r.data().asUtf8String().replaceAll("\\p{Cntrl}", ""))
        .toList();
  }
}
