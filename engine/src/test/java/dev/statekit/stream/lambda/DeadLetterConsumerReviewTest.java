package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.event.BatchOutcome;
import dev.statekit.event.QueueRecord;
import dev.statekit.stream.Pipeline;
import dev.statekit.telemetry.LogEvent;
import dev.statekit.telemetry.LogLevel;
import dev.statekit.telemetry.LogOutput;
import dev.statekit.telemetry.Telemetry;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter consumer ({@link BatchPipeline#deadLetterConsumer}) against the schedules its
 * first tests left out: a dead-letter queue that more than one source queue of the pipeline moves
 * its messages to, and a message that fails in the pipeline on every receive, from its queue and
 * then from the dead-letter queue.
 */
class DeadLetterConsumerReviewTest {
  private static final String ORDERS = DeferredFixture.QUEUE;
  private static final String PAYMENTS = "payments";

  private final DeferredFixture fixture = new DeferredFixture();
  private final List<String> delivered = fixture.delivered;
  private final AtomicBoolean crashAfterReceipts = new AtomicBoolean();
  private final BatchPipeline pipeline =
      fixture
          .builder(DeferredFixture.counts(fixture.sink), fixture.memory)
          .faultHook(
              (step, detail) -> {
                if (step == BatchFaultHook.Step.DELIVERED && crashAfterReceipts.getAndSet(false)) {
                  throw new IllegalStateException("the invocation dies after its receipts");
                }
              })
          .build();

  /** A message as Lambda hands it over from queue {@code queue}. */
  private static QueueRecord message(String queue, String id, String body) {
    return new QueueRecord(queue, id, body, Map.of("SentTimestamp", "1000000"), Map.of());
  }

  /**
   * The same message as Lambda hands it over from the dead-letter queue {@code dlq} that the
   * redrive policy of {@code source} moved it to: SQS keeps its id and names its source queue in
   * the system attribute {@code DeadLetterQueueSourceArn}.
   */
  private static QueueRecord deadLetter(String dlq, String source, String id, String body) {
    return new QueueRecord(
        dlq,
        id,
        body,
        Map.of(
            "SentTimestamp",
            "1000000",
            "ApproximateReceiveCount",
            "3",
            "DeadLetterQueueSourceArn",
            "arn:aws:sqs:eu-west-1:123456789012:" + source),
        Map.of());
  }

  /**
   * One dead-letter queue serves both source queues of the pipeline (a redrive policy names any
   * queue, and several queues may name one), and its event source mapping is routed to {@code
   * deadLetterConsumer("orders")}. A message of "payments", applied and receipted by an invocation
   * that then died on every receive, reaches it: taken as a message of "orders", where no receipt
   * and no pending entry knows its id, it was counted a second time ("a:2", where its receipt says
   * "a:1"), and nothing could be given to say otherwise. The message names its queue: given both
   * queues, the consumer takes it as that queue's.
   */
  @Test
  void aDeadLetterOfAnotherSourceQueueOfTheSharedDeadLetterQueueIsAppliedOnce() throws Exception {
    crashAfterReceipts.set(true);
    assertThrows(
        IllegalStateException.class,
        () -> pipeline.queueConsumer().accept(List.of(message(PAYMENTS, "p-1", "a"))));
    assertEquals(List.of("a:1"), delivered);

    BatchOutcome outcome =
        pipeline
            .deadLetterConsumer(ORDERS, PAYMENTS)
            .accept(List.of(deadLetter("shared-dlq", PAYMENTS, "p-1", "a")));

    assertEquals(List.of(), outcome.failedItemIds());
    assertEquals(
        List.of("a:1"),
        delivered.stream().distinct().toList(),
        "its receipt's output again, not a second count");
    pipeline.queueConsumer().accept(List.of(message(PAYMENTS, "p-2", "a")));
    assertEquals("a:2", delivered.get(delivered.size() - 1), "the next message counts from one");
  }

  /**
   * The dead-letter queue's event source mapping routed to the queue consumer, as a function behind
   * {@code PipelineHandler} routes every queue's events (it has no way to say which queue is a
   * dead-letter queue): the message was taken as one of a queue "orders-dlq" the pipeline never
   * read, counted a second time ("a:2"), and the new split held the pipeline's windows back. It
   * names the queue it was moved from: it is taken as that queue's, by either consumer.
   */
  @Test
  void aDeadLetterHandedToTheQueueConsumerIsAppliedOnceAsItsQueuesMessage() throws Exception {
    crashAfterReceipts.set(true);
    assertThrows(
        IllegalStateException.class,
        () -> pipeline.queueConsumer().accept(List.of(message(ORDERS, "m-1", "a"))));

    BatchOutcome outcome =
        pipeline.queueConsumer().accept(List.of(deadLetter("orders-dlq", ORDERS, "m-1", "a")));

    assertEquals(List.of(), outcome.failedItemIds());
    assertEquals(List.of("a:1"), delivered.stream().distinct().toList(), "not a second count");
    assertEquals(
        List.of(ORDERS),
        pipeline.splits().stream().map(SplitState::split).filter(s -> !s.startsWith("#")).toList(),
        "no split of the dead-letter queue");
  }

  /**
   * The consumer given what is not a queue's name (a DynamoDB stream's split, a shard's, a queue's
   * URL) took every dead letter as a message of that split: an unordered batch of a shard's split,
   * or of a split no receipt of the queue's messages is in (each applied a second time). It is
   * refused when the consumer is made, naming what to give.
   */
  @Test
  void aSourceThatIsNoQueueNameIsRefused() {
    for (String source :
        List.of(
            "dynamodb:orders",
            "clicks/shardId-000000000000",
            "https://sqs.eu-west-1.amazonaws.com/123456789012/orders")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> pipeline.deadLetterConsumer(source), source);
      assertTrue(e.getMessage().contains(source), e.getMessage());
      assertTrue(e.getMessage().contains("name"), e.getMessage());
    }
    pipeline.deadLetterConsumer("orders.fifo");
    pipeline.deadLetterConsumer("orders_2-eu");
  }

  /**
   * A dead-letter queue with a dead-letter queue of its own (a parking queue for what fails there
   * too): a message moved on from "orders-dlq" names that queue, not "orders", whose split its
   * receipt is in. Given only "orders", the consumer takes it as an "orders" message (applied
   * once), and warns that it named another queue.
   */
  @Test
  void aDeadLetterNamingAQueueNotGivenIsTakenAsTheSourceQueuesWithAWarning() throws Exception {
    crashAfterReceipts.set(true);
    assertThrows(
        IllegalStateException.class,
        () -> pipeline.queueConsumer().accept(List.of(message(ORDERS, "m-1", "a"))));
    List<LogEvent> heard = Collections.synchronizedList(new ArrayList<>());

    BatchOutcome outcome;
    try (Telemetry.Restore route = LogOutput.route("dev.statekit", heard::add)) {
      outcome =
          pipeline
              .deadLetterConsumer(ORDERS)
              .accept(List.of(deadLetter("orders-parking", "orders-dlq", "m-1", "a")));
    }

    assertEquals(List.of(), outcome.failedItemIds());
    assertEquals(List.of("a:1"), delivered.stream().distinct().toList(), "not a second count");
    assertTrue(
        heard.stream()
            .anyMatch(
                e ->
                    e.level() == LogLevel.WARN
                        && e.message().contains("orders-dlq")
                        && e.message().contains("m-1")),
        "warns that the message named another queue: " + heard);
  }

  /**
   * One dead-letter queue for the two queues of the pipeline, both given: each message is taken as
   * the queue's it names.
   */
  @Test
  void aSharedDeadLetterQueuesMessagesAreTakenAsTheGivenQueuesTheyName() throws Exception {
    crashAfterReceipts.set(true);
    assertThrows(
        IllegalStateException.class,
        () -> pipeline.queueConsumer().accept(List.of(message(ORDERS, "m-1", "a"))));
    crashAfterReceipts.set(true);
    assertThrows(
        IllegalStateException.class,
        () -> pipeline.queueConsumer().accept(List.of(message(PAYMENTS, "p-1", "b"))));

    BatchOutcome outcome =
        pipeline
            .deadLetterConsumer(ORDERS, PAYMENTS)
            .accept(
                List.of(
                    deadLetter("shared-dlq", PAYMENTS, "p-1", "b"),
                    deadLetter("shared-dlq", ORDERS, "m-1", "a")));

    assertEquals(List.of(), outcome.failedItemIds());
    assertEquals(List.of("a:1", "b:1"), delivered.stream().distinct().toList());
  }

  /** A dead letter whose event does not name its source queue is taken as {@code sourceQueue}'s. */
  @Test
  void aDeadLetterThatDoesNotNameItsQueueIsTakenAsTheSourceQueues() throws Exception {
    crashAfterReceipts.set(true);
    assertThrows(
        IllegalStateException.class,
        () -> pipeline.queueConsumer().accept(List.of(message(ORDERS, "m-1", "a"))));

    BatchOutcome outcome =
        pipeline.deadLetterConsumer(ORDERS).accept(List.of(message("orders-dlq", "m-1", "a")));

    assertEquals(List.of(), outcome.failedItemIds());
    assertEquals(List.of("a:1"), delivered.stream().distinct().toList());
  }

  /**
   * A message that fails in the pipeline on every receive (its function throws) goes back to its
   * queue with its error, the redrive policy moves it to the dead-letter queue with no word of why,
   * and there the dead-letter consumer fails it again on every receive, until the dead-letter
   * queue's retention deletes it. The consumers answered its id alone: the error, which the batch's
   * result holds, was written nowhere, so the message was lost without a trace of why.
   */
  @Test
  void aMessageThatFailsFromTheDeadLetterQueueIsLoggedWithItsError() throws Exception {
    Pipeline poisoned =
        Pipeline.from(BatchSource.records())
            .map(
                bytes -> {
                  String text = new String(bytes, StandardCharsets.UTF_8);
                  if (text.startsWith("poison")) {
                    throw new IllegalArgumentException("cannot read " + text);
                  }
                  return text;
                })
            .to(EgressOutput.to(fixture.sink, TypeName.of("test", "passed"), Types.stringType()));
    BatchPipeline pipeline = fixture.builder(poisoned, fixture.memory).build();
    List<LogEvent> heard = Collections.synchronizedList(new ArrayList<>());

    BatchOutcome fromQueue;
    BatchOutcome fromDeadLetters;
    try (Telemetry.Restore route = LogOutput.route("dev.statekit", heard::add)) {
      fromQueue =
          pipeline
              .queueConsumer()
              .accept(List.of(message(ORDERS, "m-1", "poison-1"), message(ORDERS, "m-2", "ok")));
      fromDeadLetters =
          pipeline
              .deadLetterConsumer(ORDERS)
              .accept(List.of(deadLetter("orders-dlq", ORDERS, "m-1", "poison-1")));
    }

    assertEquals(List.of("m-1"), fromQueue.failedItemIds());
    assertEquals(List.of("m-1"), fromDeadLetters.failedItemIds());
    List<String> warnings =
        heard.stream()
            .filter(e -> e.level().compareTo(LogLevel.WARN) >= 0)
            .map(LogEvent::message)
            .toList();
    assertEquals(2, warnings.size(), "one warning per failed batch: " + heard);
    for (String warning : warnings) {
      assertTrue(warning.contains("m-1"), "names the message: " + warning);
      assertTrue(warning.contains("cannot read poison-1"), "says why it failed: " + warning);
    }
    assertTrue(
        warnings.get(1).contains("dead-letter queue"),
        "says that the dead letter stays in its queue: " + warnings.get(1));
  }
}
