package dev.statekit.entry;

import static dev.statekit.entry.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.event.BatchOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's limits for events, each where it is enforced, with the error a sender gets. */
class EventLimitsTest {
  private final EntryPoint entry =
      EntryPoint.builder()
          .anyQueue(records -> BatchOutcome.allSucceeded())
          .anyKinesisStream(records -> BatchOutcome.allSucceeded())
          .anyDynamoDbStream(records -> BatchOutcome.allSucceeded())
          .envelopes(payload -> utf8("{}"))
          .maxPayloadBytes(64 * 1024)
          .build();

  @Test
  void aPayloadPastTheLimitIsRefusedUnread() {
    var e =
        assertThrows(PayloadTooLargeException.class, () -> entry.invoke(new byte[64 * 1024 + 1]));
    assertTrue(e.getMessage().contains("limit of 65536"), e.getMessage());
  }

  @Test
  void jsonDeeperThan100LevelsIsRefused() {
    String deep = "[".repeat(101) + "]".repeat(101);

    var e = assertThrows(UnrecognizedPayloadException.class, () -> entry.invoke(utf8(deep)));
    assertTrue(e.getMessage().contains("deeper than 100 levels"), e.getMessage());
    assertTrue(!e.getMessage().contains("StreamReadConstraints"), e.getMessage());
  }

  @Test
  void moreRecordsThanABatchHoldsAreRefused() {
    String record = new String(Events.sqs("q", "m")).replaceAll("^\\{\"Records\":\\[|\\]\\}$", "");
    String event =
        "{\"Records\":[" + String.join(",", java.util.Collections.nCopies(10_001, record)) + "]}";
    EntryPoint roomy =
        EntryPoint.builder().anyQueue(records -> BatchOutcome.allSucceeded()).build();

    var e = assertThrows(MalformedEventException.class, () -> roomy.invoke(utf8(event)));
    assertTrue(e.getMessage().contains("at most 10000"), e.getMessage());
  }

  @Test
  void kinesisFieldsPastTheirBoundsAreRefusedNamingTheField() {
    assertEachRefused(
        new String(Events.kinesis("clicks", "1")),
        List.of(
            List.of(
                "\"sequenceNumber\":\"1\"",
                "\"sequenceNumber\":\"" + "1".repeat(130) + "\"",
                "sequenceNumber"),
            List.of("\"card-1\"", "\"" + "k".repeat(257) + "\"", "partitionKey"),
            List.of("aGVsbG8=", "not base64!", "data"),
            List.of("shardId-000000000003:", "shard id with spaces:", "eventID"),
            List.of("stream/clicks", "table/clicks", "eventSourceARN")));
  }

  @Test
  void dynamoDbImagesPastDynamoDbsOwnBoundsAreRefused() {
    String event = new String(Events.dynamoDb("orders"));
    String deep = "{\"M\":{\"a\":".repeat(33) + "{\"S\":\"x\"}" + "}}".repeat(33);

    var depth =
        assertThrows(
            MalformedEventException.class,
            () -> entry.invoke(utf8(event.replace("{\"N\":\"2\"}", deep))));
    var number =
        assertThrows(
            MalformedEventException.class,
            () -> entry.invoke(utf8(event.replace("{\"N\":\"2\"}", "{\"N\":\"1e999999999\"}"))));
    var change =
        assertThrows(
            MalformedEventException.class,
            () -> entry.invoke(utf8(event.replace("\"MODIFY\"", "\"DROP\""))));

    assertTrue(depth.getMessage().contains("32 levels"), depth.getMessage());
    assertTrue(
        number.getMessage().contains("not a number DynamoDB can store"), number.getMessage());
    assertTrue(change.getMessage().contains("eventName 'DROP'"), change.getMessage());
  }

  @Test
  void sqsAttributesPastTheirBoundsAreRefused() {
    assertEachRefused(
        new String(Events.sqs("q", "m1")),
        List.of(
            List.of(
                "\"MessageGroupId\":\"g\"",
                "\"MessageGroupId\":\"" + "g".repeat(129) + "\"",
                "MessageGroupId"),
            List.of(
                "\"ApproximateReceiveCount\":\"2\"",
                "\"ApproximateReceiveCount\":\"1e3\"",
                "ApproximateReceiveCount"),
            List.of(
                "\"SequenceNumber\":\"100\"",
                "\"SequenceNumber\":\"" + "9".repeat(39) + "\"",
                "128 bits")));
    assertEquals("{\"batchItemFailures\":[]}", new String(entry.invoke(Events.sqs("q", "m1"))));
  }

  /** Each change (what to replace, with what, what the message names) makes the event refused. */
  private void assertEachRefused(String event, List<List<String>> changes) {
    for (List<String> change : changes) {
      var e =
          assertThrows(
              MalformedEventException.class,
              () -> entry.invoke(utf8(event.replace(change.get(0), change.get(1)))),
              change.get(2));
      assertTrue(e.getMessage().contains(change.get(2)), e.getMessage());
    }
  }
}
