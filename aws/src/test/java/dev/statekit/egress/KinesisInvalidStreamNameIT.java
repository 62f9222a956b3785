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
 * Limit (Kinesis API reference, PutRecords.StreamName: 1 to 128 characters of pattern {@code
 * [a-zA-Z0-9_.-]+}): a request to a stream name outside it is refused whole (ValidationException,
 * HTTP 400; kinesalite does the same), however often it is sent. A function names the stream freely
 * (a StateFun KinesisEgressRecord's stream, read by EgressRoutes.routeKinesis), so no stream can
 * ever take such a record: it is the record's, like an invalid explicit hash key
 * (KinesisInvalidExplicitHashKeyIT), not the sink's configuration (a valid name of a stream that
 * does not exist yet, which may be created).
 *
 * <p>EgressSink's contract: "A record refused for what it holds is named
 * (EgressException#refusing), as check would refuse it". KinesisEgressSink.check let the record
 * through and deliver failed with an INVALID_REQUEST naming no record, so a caller that sets
 * refused records aside by id (a pipeline's refusedOutputsTo) could not, and failed its batch on
 * every try.
 *
 * <p>Schedule (kinesalite): deliver a valid record to the default stream and one naming the stream
 * "orders stream!" (then: a name of 129 characters). Expected: an EgressException naming the
 * second, and check refusing it.
 */
@ExtendWith(RealServers.class)
class KinesisInvalidStreamNameIT {
  private static final TypeName EGRESS = TypeName.of("app", "out");
  private static final Address SOURCE = Address.of(TypeName.of("app", "fn"), "src");
  private static final byte[] VALUE = "x".getBytes(StandardCharsets.UTF_8);

  @Test
  void aRecordNamingAStreamKinesisCannotHaveIsRefusedByItsId(KinesisClient kinesis)
      throws Exception {
    String stream = "names-" + UUID.randomUUID().toString().substring(0, 8);
    TestStreams.create(kinesis, stream, 1);
    KinesisEgressSink sink =
        new KinesisEgressSink(
            kinesis,
            stream,
            RetryPolicy.builder().baseDelay(Duration.ZERO).maxDelay(Duration.ZERO).build());
    EgressRecord good = EgressRecord.builder("good", EGRESS, SOURCE, "app/raw", VALUE).build();

    for (String name : List.of("orders stream!", "s".repeat(129))) {
      EgressRecord bad =
          EgressRecord.builder("bad", EGRESS, SOURCE, "app/raw", VALUE).destination(name).build();
      EgressException refused =
          assertThrows(EgressException.class, () -> sink.deliver(List.of(good, bad)));
      assertEquals(
          Optional.of("bad"),
          refused.refusedRecordId(),
          "the record no stream can take is named; the sink said: " + refused.getMessage());
      assertEquals(EgressException.Reason.INVALID_REQUEST, refused.reason());
      assertEquals(
          Optional.of("bad"),
          assertThrows(EgressException.class, () -> sink.check(bad)).refusedRecordId(),
          "check refuses it as deliver does");
    }
  }
}
