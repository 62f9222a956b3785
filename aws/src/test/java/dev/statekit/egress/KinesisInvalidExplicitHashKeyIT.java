package dev.statekit.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.aws.kinesis.KinesisEgressSink;
import dev.statekit.function.Address;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestStreams;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * Limit (Kinesis API reference, PutRecordsRequestEntry.ExplicitHashKey: pattern {@code
 * 0|([1-9]\d{0,38})}, and the value at most 2^128-1): a request holding one entry that breaks it is
 * refused whole (ValidationException / InvalidArgumentException, HTTP 400; kinesalite does the
 * same). A function sets the key freely (KinesisEgressMessage.withUtf8ExplicitHashKey, a StateFun
 * KinesisEgressRecord's explicit_hash_key read by EgressRoutes.routeKinesis).
 *
 * <p>EgressSink's contract: "A record refused for what it holds is named
 * (EgressException#refusing), as check would refuse it". KinesisEgressSink.check lets the record
 * through, and deliver fails the whole call with an INVALID_REQUEST naming no record, so every
 * record beside it (other addresses' records in the same outbox delivery) is refused on that try,
 * and a caller that sets refused records aside by id (OutputDelivery's refusedOutputsTo) cannot: it
 * rethrows.
 *
 * <p>Schedule (kinesalite): deliver one valid record and one with explicit hash key "abc".
 * Expected: an EgressException naming "bad".
 */
@ExtendWith(RealServers.class)
class KinesisInvalidExplicitHashKeyIT {
  private static final TypeName EGRESS = TypeName.of("app", "out");
  private static final Address SOURCE = Address.of(TypeName.of("app", "fn"), "src");

  @Test
  void aRecordWithAnInvalidExplicitHashKeyIsRefusedByItsId(KinesisClient kinesis) throws Exception {
    String stream = "hashkey-" + UUID.randomUUID().toString().substring(0, 8);
    TestStreams.create(kinesis, stream, 1);
    byte[] value = "x".getBytes(StandardCharsets.UTF_8);
    EgressRecord good = EgressRecord.builder("good", EGRESS, SOURCE, "app/raw", value).build();
    EgressRecord bad =
        EgressRecord.builder("bad", EGRESS, SOURCE, "app/raw", value)
            .key("k")
            .explicitHashKey("abc")
            .build();
    KinesisEgressSink sink =
        new KinesisEgressSink(
            kinesis,
            stream,
            RetryPolicy.builder().baseDelay(Duration.ZERO).maxDelay(Duration.ZERO).build());

    EgressException refused =
        assertThrows(EgressException.class, () -> sink.deliver(List.of(good, bad)));
    assertEquals(
        Optional.of("bad"),
        refused.refusedRecordId(),
        "the record Kinesis can never take is named; the sink said: " + refused.getMessage());
  }
}
