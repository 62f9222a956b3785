package dev.statekit.entry;

import static dev.statekit.entry.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.event.BatchOutcome;
import dev.statekit.runtime.FunctionRuntime;
import org.junit.jupiter.api.Test;

/** Issue 12, case 2: events of sources the application did not declare are refused. */
class ForgedEventsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String QUEUE_URL =
      "https://sqs.eu-west-1.amazonaws.com/123456789012/ingress.fifo";
  private static final String QUEUE_ARN = "arn:aws:sqs:eu-west-1:123456789012:ingress.fifo";

  private final CounterRuntime counter = new CounterRuntime();
  private final FunctionRuntime runtime = counter.runtime;

  @Test
  void theRuntimeAloneRoutesNoQueue() {
    EntryPoint entry =
        EntryPoint.builder()
            .envelopes(runtime.envelopeConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask())
            .build();

    assertThrows(NoRouteException.class, () -> entry.invoke(sqs(QUEUE_ARN, "m1", "7")));
    assertEquals(0, seen());
  }

  @Test
  void aQueueOfTheSameNameInAnotherAccountIsNotTheDeclaredOne() {
    EntryPoint entry =
        EntryPoint.builder()
            .envelopes(runtime.envelopeConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask())
            .queue(QUEUE_URL, runtime.queueConsumer())
            .build();

    assertThrows(
        NoRouteException.class,
        () -> entry.invoke(sqs("arn:aws:sqs:eu-west-1:999999999999:ingress.fifo", "m1", "7")));
    assertEquals(0, seen());
  }

  @Test
  void aSequenceNumberSqsCannotSendIsRefusedAndLaterMessagesStillApply() throws Exception {
    EntryPoint entry =
        EntryPoint.builder()
            .envelopes(runtime.envelopeConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask())
            .queue(QUEUE_URL, runtime.queueConsumer())
            .build();

    assertThrows(
        MalformedEventException.class,
        () -> entry.invoke(sqs(QUEUE_ARN, "forged", "9".repeat(40))));
    assertEquals(
        "{\"batchItemFailures\":[]}",
        new String(entry.invoke(sqs(QUEUE_ARN, "real", "18849496460467696129"))));
    assertEquals(1, seen());
  }

  @Test
  void streamsAndTablesOfOtherAccountsAreNotTheDeclaredOnes() {
    EntryPoint entry =
        EntryPoint.builder()
            .kinesisStream(
                "arn:aws:kinesis:eu-west-1:123456789012:stream/clicks",
                records -> BatchOutcome.allSucceeded())
            .dynamoDbStream(
                "arn:aws:dynamodb:eu-west-1:123456789012:table/orders",
                records -> BatchOutcome.allSucceeded())
            .build();

    assertEquals(
        "{\"batchItemFailures\":[]}", new String(entry.invoke(Events.kinesis("clicks", "1"))));
    assertThrows(
        NoRouteException.class,
        () ->
            entry.invoke(
                utf8(
                    new String(Events.kinesis("clicks", "1"))
                        .replace("123456789012", "999999999999"))));
    assertThrows(
        NoRouteException.class,
        () ->
            entry.invoke(
                utf8(
                    new String(Events.dynamoDb("orders"))
                        .replace("123456789012", "999999999999"))));
  }

  @Test
  void scheduledEventsRunTheTasksOnlyForTheDeclaredRules() throws Exception {
    EntryPoint undeclared =
        EntryPoint.builder()
            .envelopes(runtime.envelopeConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask())
            .build();
    EntryPoint declared =
        EntryPoint.builder()
            .envelopes(runtime.envelopeConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask())
            .scheduleRule("arn:aws:events:eu-west-1:123456789012:rule/tick")
            .build();
    byte[] elsewhere =
        utf8(new String(Events.scheduled()).replace("rule/tick", "rule/someone-elses"));

    assertThrows(NoRouteException.class, () -> undeclared.invoke(Events.scheduled()));
    assertThrows(NoRouteException.class, () -> declared.invoke(elsewhere));
    assertEquals(
        0, JSON.readTree(declared.invoke(Events.scheduled())).at("/tasks/timers/sent").asInt());
  }

  private int seen() {
    return counter.seen("a");
  }

  private static byte[] sqs(String arn, String messageId, String sequenceNumber) throws Exception {
    String envelope =
        "{\"target\":\"test/counter/a\",\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}";
    return utf8(
        "{\"Records\":[{\"messageId\":\""
            + messageId
            + "\",\"body\":"
            + JSON.writeValueAsString(envelope)
            + ",\"attributes\":{\"MessageGroupId\":\"test/counter/a\",\"SequenceNumber\":\""
            + sequenceNumber
            + "\",\"ApproximateReceiveCount\":\"1\"},\"eventSource\":\"aws:sqs\","
            + "\"eventSourceARN\":\""
            + arn
            + "\"}]}");
  }
}
