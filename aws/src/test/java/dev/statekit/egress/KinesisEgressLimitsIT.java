package dev.statekit.egress;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.aws.kinesis.KinesisEgressSink;
import dev.statekit.function.Address;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestStreams;
import dev.statekit.types.TypeName;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequest;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequestEntry;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResultEntry;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * {@link KinesisEgressSink} against kinesalite, for what Kinesis documents of PutRecords that
 * kinesalite does not do itself: a partial failure (some entries answered with an ErrorCode,
 * FailedRecordCount above 0, the others written) and the 5 MiB limit of a whole request (data and
 * partition keys). Kinesalite never fails part of a request nor checks the request's total, so a
 * delegating client produces the first and records the second.
 */
@ExtendWith(RealServers.class)
class KinesisEgressLimitsIT {
  private static final TypeName EGRESS = TypeName.of("app", "out");
  private static final Address SOURCE = Address.of(TypeName.of("app", "fn"), "src");
  private static final RetryPolicy FAST =
      RetryPolicy.builder().baseDelay(Duration.ZERO).maxDelay(Duration.ZERO).build();

  /** PutRecords' documented limit for a whole request, partition keys included. */
  private static final long PUT_RECORDS_MAX_BYTES = 5L * 1024 * 1024;

  /**
   * A throttled entry is put again and arrives; behind the later record of its key that the same
   * request wrote, as the sink documents (PutRecords does not guarantee order).
   */
  @Test
  void aRecordKinesisThrottledIsPutAgainBehindWhatItsRequestWrote(KinesisClient kinesis)
      throws Exception {
    String stream = stream(kinesis);
    AtomicBoolean armed = new AtomicBoolean(true);
    KinesisClient partial =
        putRecords(
            kinesis,
            request -> {
              if (request.records().size() < 2 || !armed.compareAndSet(true, false)) {
                return kinesis.putRecords(request);
              }
              // The documented partial answer: entry 0 throttled, every later entry written.
              List<PutRecordsRequestEntry> rest =
                  request.records().subList(1, request.records().size());
              PutRecordsResponse written =
                  kinesis.putRecords(request.toBuilder().records(rest).build());
              List<PutRecordsResultEntry> results = new ArrayList<>();
              results.add(
                  PutRecordsResultEntry.builder()
                      .errorCode("ProvisionedThroughputExceededException")
                      .errorMessage("Rate exceeded for shard shardId-000000000000 (simulated)")
                      .build());
              results.addAll(written.records());
              return PutRecordsResponse.builder().failedRecordCount(1).records(results).build();
            });

    new KinesisEgressSink(partial, stream, FAST)
        .deliver(List.of(record("r1", "first", "user-1"), record("r2", "second", "user-1")));

    assertEquals(List.of("second", "first"), read(kinesis, stream));
  }

  /** A record over 1 MiB with its partition key is refused by id, and nothing is put. */
  @Test
  void aRecordOverKinesissLimitIsRefusedByIdBeforeAnythingIsPut(KinesisClient kinesis)
      throws Exception {
    String stream = stream(kinesis);
    byte[] big = new byte[1024 * 1024 - 2];
    EgressException refused =
        assertThrows(
            EgressException.class,
            () ->
                new KinesisEgressSink(kinesis, stream, FAST)
                    .deliver(
                        List.of(
                            record("small", "fits", "k"),
                            EgressRecord.builder("huge", EGRESS, SOURCE, "app/raw", big)
                                .key("key")
                                .build())));
    assertEquals(EgressException.Reason.INVALID_REQUEST, refused.reason());
    assertTrue(
        refused.getMessage().contains("Egress record huge takes 1048577"), refused.getMessage());
    assertEquals(List.of(), read(kinesis, stream));
  }

  /**
   * Six records of 1 MB, each within Kinesis's limit, go in requests of at most 5 MiB: the sink cut
   * requests at 500 records only, and Kinesis (kinesalite: HTTP 413) refused the 6 MB request whole
   * on every retry, so all six valid records were refused.
   */
  @Test
  void noPutRecordsRequestIsOverFiveMiB(KinesisClient kinesis) throws Exception {
    String stream = stream(kinesis);
    List<Long> requestBytes = new CopyOnWriteArrayList<>();
    KinesisClient measured =
        putRecords(
            kinesis,
            request -> {
              long bytes = 0;
              for (PutRecordsRequestEntry entry : request.records()) {
                bytes +=
                    entry.data().asByteArrayUnsafe().length
                        + entry.partitionKey().getBytes(StandardCharsets.UTF_8).length;
              }
              requestBytes.add(bytes);
              return kinesis.putRecords(request);
            });
    List<EgressRecord> records = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      byte[] value = new byte[1_000_000];
      Arrays.fill(value, (byte) ('a' + i));
      records.add(
          EgressRecord.builder("big-" + i, EGRESS, SOURCE, "app/raw", value).key("k" + i).build());
    }

    KinesisEgressSink sink = new KinesisEgressSink(measured, stream, FAST);
    assertDoesNotThrow(() -> sink.deliver(records), "six records of 1 MB each, each valid");
    assertTrue(
        requestBytes.stream().allMatch(b -> b <= PUT_RECORDS_MAX_BYTES),
        "PutRecords requests of " + requestBytes + " bytes; Kinesis takes at most 5 MiB a request");
  }

  private static String stream(KinesisClient kinesis) throws InterruptedException {
    String stream = "limits-" + UUID.randomUUID().toString().substring(0, 8);
    TestStreams.create(kinesis, stream, 1);
    return stream;
  }

  private static EgressRecord record(String id, String text, String key) {
    return EgressRecord.builder(
            id, EGRESS, SOURCE, "app/raw", text.getBytes(StandardCharsets.UTF_8))
        .key(key)
        .build();
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
        .map(r -> r.data().asUtf8String())
        .toList();
  }

  /** A client whose PutRecords goes through {@code put}; everything else to {@code real}. */
  private static KinesisClient putRecords(
      KinesisClient real, Function<PutRecordsRequest, PutRecordsResponse> put) {
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
                return put.apply(request);
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
}
