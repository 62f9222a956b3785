package dev.statekit.entry;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.ChangeRecord;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.QueueRecord;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.protocol.MalformedRequestException;
import dev.statekit.types.TypeName;
import java.time.Instant;
import java.util.List;

/**
 * The entry point's event reader on mutated Lambda events (seeded from {@code events/}, the priming
 * samples and the protocol's requests): every payload is answered or refused with one of the entry
 * point's documented exceptions, within two seconds of CPU time, and every record handed on is
 * within its source's bounds.
 */
class EventReaderFuzzTest {
  private static final Instant LATEST = Instant.ofEpochSecond(253_402_300_799L);

  private static final EntryPoint ENTRY =
      EntryPoint.builder()
          .functions(
              StatefulFunctions.builder()
                  .withFunction(TypeName.of("example", "greeter"), (context, message) -> {})
                  .build())
          .envelopes(payload -> new byte[0])
          .queue(
              "arn:aws:sqs:us-east-1:000000000000:statekit-IngressQueue.fifo",
              EventReaderFuzzTest::queue)
          .anyQueue(EventReaderFuzzTest::queue)
          .anyKinesisStream(EventReaderFuzzTest::kinesis)
          .anyDynamoDbStream(EventReaderFuzzTest::changes)
          .scheduled("tick", event -> event.time().toString())
          .anyScheduleRule()
          .build();

  static {
    // Loads what each shape needs, so the first inputs are timed as the others are.
    ENTRY.prime();
    for (byte[] event :
        new byte[][] {
          Events.sqs("q", "m1"),
          Events.kinesis("s", "1"),
          Events.dynamoDb("tbl"),
          Events.scheduled()
        }) {
      ENTRY.invoke(event);
    }
  }

  @FuzzTest
  @DictionaryEntries({
    "\"Records\"",
    "\"eventSource\"",
    "\"eventSourceARN\"",
    "\"aws:sqs\"",
    "\"aws:kinesis\"",
    "\"aws:dynamodb\"",
    "arn:aws:sqs:us-east-1:000000000000:",
    "arn:aws:kinesis:us-east-1:000000000000:stream/",
    "arn:aws:dynamodb:us-east-1:000000000000:table/",
    "arn:aws:events:us-east-1:000000000000:rule/",
    "\"SequenceNumber\"",
    "\"approximateArrivalTimestamp\"",
    "\"ApproximateCreationDateTime\"",
    "\"detail-type\"",
    "\"Scheduled Event\"",
    "\"requestContext\"",
    "\"isBase64Encoded\"",
    "{\"N\":",
    "{\"M\":{",
    "{\"L\":[",
    "1e999999999"
  })
  void readsAnyEvent(byte[] payload) {
    Quick.within(
        () -> ENTRY.invoke(payload),
        UnrecognizedPayloadException.class,
        MalformedEventException.class,
        PayloadTooLargeException.class,
        NoRouteException.class,
        MalformedRequestException.class);
  }

  private static BatchOutcome queue(List<QueueRecord> records) {
    for (QueueRecord record : records) {
      record.sequenceNumber().ifPresent(s -> assertTrue(s.length() <= 39, s));
      record.groupId().ifPresent(g -> assertTrue(g.length() <= 128, g));
      assertTrue(record.receiveCount() >= 1);
      record.sentAt();
    }
    return BatchOutcome.allSucceeded();
  }

  private static BatchOutcome kinesis(List<KinesisRecord> records) {
    for (KinesisRecord record : records) {
      assertTrue(record.sequenceNumber().matches("0|[1-9][0-9]{0,128}"), record.sequenceNumber());
      inBounds(record.arrivedAt());
    }
    return BatchOutcome.allSucceeded();
  }

  private static BatchOutcome changes(List<ChangeRecord> records) {
    for (ChangeRecord record : records) {
      inBounds(record.createdAt());
      record.newImage().values().forEach(EventReaderFuzzTest::numbersAreSmall);
    }
    return BatchOutcome.allSucceeded();
  }

  /** A DynamoDB number a consumer reads as a BigDecimal costs no more than its few digits. */
  private static void numbersAreSmall(
      software.amazon.awssdk.services.dynamodb.model.AttributeValue v) {
    if (v.n() != null) {
      java.math.BigDecimal number = new java.math.BigDecimal(v.n());
      assertTrue(Math.abs(number.scale()) < 1100, v.n());
    }
    if (v.hasM()) {
      v.m().values().forEach(EventReaderFuzzTest::numbersAreSmall);
    }
    if (v.hasL()) {
      v.l().forEach(EventReaderFuzzTest::numbersAreSmall);
    }
  }

  private static void inBounds(Instant time) {
    if (time.isBefore(Instant.EPOCH) || time.isAfter(LATEST)) {
      fail("a time past the bounds came through: " + time);
    }
  }
}
