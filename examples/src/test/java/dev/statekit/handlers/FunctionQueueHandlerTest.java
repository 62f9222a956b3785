package dev.statekit.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.examples.greeter.Audit;
import dev.statekit.examples.greeter.ExampleFunctions;
import dev.statekit.examples.greeter.Greeter;
import dev.statekit.examples.greeter.Reminder;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The handlers read Lambda's events as Lambda delivers them (fixtures), over in-memory adapters.
 */
class FunctionQueueHandlerTest {
  private final InMemoryMessageBus ingress =
      new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));
  private final InMemoryMessageBus deadLetters =
      new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));
  private final CollectingEgressSink greets = new CollectingEgressSink();
  private final FunctionRuntime runtime =
      FunctionRuntime.builder(ExampleFunctions.registry())
          .store(new InMemoryFunctionStore())
          .queue(ingress)
          .deadLetters(deadLetters)
          .egress(
              EgressRoutes.builder()
                  .route(Greeter.GREETS, greets)
                  .route(Audit.AUDITS, new CollectingEgressSink())
                  .route(Reminder.REMINDERS, new CollectingEgressSink())
                  .build())
          .build();

  @Test
  void theSqsFixtureIsAppliedAndItsBadMessagesDeadLettered() {
    SQSEvent event = EventLoader.loadSQSEvent("events/runtime-sqs-batch.json");

    SQSBatchResponse response = new FunctionQueueHandler(runtime).handleRequest(event, null);

    assertEquals(List.of(), response.getBatchItemFailures());
    assertEquals(List.of("Hello Alan! I have seen you 1 times."), greets.texts());
    List<BusMessage> dead = deadLetters.peekAll();
    assertEquals(2, dead.size());
    assertEquals("5", dead.get(1).attributes().get("statekit.attempts"));
    assertTrue(dead.get(1).attributes().get("statekit.error").contains("io.statefun.types/int"));
  }

  /**
   * A receive count that is not a count (an event forged or hand-written for a direct invoke) is
   * taken as unknown, the first delivery, as the event readers take it: it used to fail the whole
   * batch with a NumberFormatException (or an IllegalArgumentException for 0) on every retry, its
   * good messages with it.
   */
  @Test
  void aReceiveCountThatIsNoCountFailsNothing() {
    SQSEvent event = EventLoader.loadSQSEvent("events/runtime-sqs-batch.json");
    event.getRecords().get(0).getAttributes().put("ApproximateReceiveCount", "many");
    event.getRecords().get(1).getAttributes().put("ApproximateReceiveCount", "0");
    event.getRecords().get(2).getAttributes().put("ApproximateReceiveCount", "99999999999");

    SQSBatchResponse response = new FunctionQueueHandler(runtime).handleRequest(event, null);

    assertEquals(List.of("Hello Alan! I have seen you 1 times."), greets.texts());
    assertEquals(
        List.of("0b5a4a44-6a1c-4d3e-9a55-6c6b1e0f0003"),
        response.getBatchItemFailures().stream()
            .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
            .toList(),
        "the bad message fails on its own, its first attempt counted");
  }

  /**
   * SQS sends every message an id and, on a FIFO queue, a decimal sequence number, by which the
   * runtime drops a group's repeats. A hand-written event without them is refused whole, saying
   * which record and what, before anything of it is applied: a sequence number that was no number
   * used to be dropped, and the message was taken without that check (applied twice when sent
   * twice); a missing id failed the batch with a NullPointerException.
   */
  @Test
  void anEventSqsCouldNotHaveSentIsRefusedWholeNamingTheRecord() {
    SQSEvent noNumber = EventLoader.loadSQSEvent("events/runtime-sqs-batch.json");
    noNumber.getRecords().get(1).getAttributes().put("SequenceNumber", "next");
    SQSEvent noId = EventLoader.loadSQSEvent("events/runtime-sqs-batch.json");
    noId.getRecords().get(2).setMessageId(null);
    FunctionQueueHandler handler = new FunctionQueueHandler(runtime);

    var badNumber =
        assertThrows(
            dev.statekit.entry.MalformedEventException.class,
            () -> handler.handleRequest(noNumber, null));
    var missingId =
        assertThrows(
            dev.statekit.entry.MalformedEventException.class,
            () -> handler.handleRequest(noId, null));

    assertTrue(badNumber.getMessage().startsWith("Records[1] ("), badNumber.getMessage());
    assertTrue(badNumber.getMessage().contains("'next'"), badNumber.getMessage());
    assertTrue(missingId.getMessage().startsWith("Records[2].messageId"), missingId.getMessage());
    assertEquals(List.of(), greets.texts(), "nothing applied");
    assertEquals(0, deadLetters.size());
  }

  @Test
  void aFailingMessageIsABatchItemFailureWithTheRestOfItsGroup() {
    SQSEvent event = EventLoader.loadSQSEvent("events/runtime-sqs-batch.json");
    event.getRecords().get(2).getAttributes().put("ApproximateReceiveCount", "1");
    SQSEvent.SQSMessage after = new SQSEvent.SQSMessage();
    after.setMessageId("after");
    after.setBody(event.getRecords().get(0).getBody());
    after.setAttributes(new java.util.HashMap<>(event.getRecords().get(0).getAttributes()));
    after.getAttributes().put("SequenceNumber", "18849496460467696131");
    event.getRecords().add(after);

    SQSBatchResponse response = new FunctionQueueHandler(runtime).handleRequest(event, null);

    assertEquals(
        List.of("0b5a4a44-6a1c-4d3e-9a55-6c6b1e0f0003", "after"),
        response.getBatchItemFailures().stream()
            .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
            .toList());
  }

  @Test
  void theDirectFixtureIsAppliedOnce() throws Exception {
    FunctionInvokeHandler handler = new FunctionInvokeHandler(runtime);
    byte[] fixture;
    try (var in = getClass().getResourceAsStream("/events/runtime-direct-greeter.json")) {
      fixture = in.readAllBytes();
    }

    String first = invoke(handler, fixture);
    String again = invoke(handler, fixture);

    assertEquals("{\"status\":\"applied\"}", first);
    assertEquals("{\"status\":\"duplicate\"}", again);
    assertEquals(List.of("Hello Ada! I have seen you 1 times."), greets.texts());
    assertEquals(1, ingress.size(), "one message to the audit, once");
  }

  private static String invoke(FunctionInvokeHandler handler, byte[] payload) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(new ByteArrayInputStream(payload), out, null);
    return out.toString(StandardCharsets.UTF_8);
  }
}
