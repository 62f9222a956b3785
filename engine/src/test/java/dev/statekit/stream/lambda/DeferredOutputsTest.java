package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.EgressException;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.QueueRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A queue's batch whose sink is down answers the messages it applied done and defers their outputs
 * to the tick ({@link DeferredMessage}). Before, it failed them: SQS handed them over again until
 * their {@code maxReceiveCount} moved them, applied, to the dead-letter queue, and SQS's redrive
 * gives a message a new id, so redriven each was applied a second time. A DynamoDB stream's batch
 * held its shard for as long as the sink was down.
 */
class DeferredOutputsTest {
  private static final String QUEUE = DeferredFixture.QUEUE;

  private final DeferredFixture fixture = new DeferredFixture();
  private final InMemoryBatchStore store = fixture.memory;
  private final List<String> delivered = fixture.delivered;
  private final FlakySink sink = fixture.sink;
  private final AtomicBoolean crashAfterReceipts = new AtomicBoolean();
  private final AtomicInteger deferredReads = new AtomicInteger();
  private final BatchPipeline pipeline =
      fixture
          .builder(
              DeferredFixture.counts(sink),
              new ForwardingBatchStore(store) {
                @Override
                public List<DeferredMessage> deferred(String pipeline, String split, int limit) {
                  deferredReads.incrementAndGet();
                  return super.deferred(pipeline, split, limit);
                }
              })
          .faultHook(
              (step, detail) -> {
                if (step == BatchFaultHook.Step.DELIVERED && crashAfterReceipts.getAndSet(false)) {
                  throw new IllegalStateException("the invocation dies after its receipts");
                }
              })
          .build();

  private static SourceBatch messages(int first, String group, String... keys) {
    return DeferredFixture.messages(first, group, keys);
  }

  private List<String> deferredIds() {
    return fixture.deferredIds();
  }

  @Test
  void aBatchWhoseSinkIsDownAnswersItsAppliedMessagesDoneAndTheTickDeliversThem() {
    sink.down();

    BatchResult result = pipeline.process(messages(1, null, "a", "a", "b"));

    assertTrue(result.succeeded(), "applied and receipted, the messages are done: " + result);
    assertEquals(List.of(), delivered);
    assertEquals(List.of("m-1", "m-2", "m-3"), deferredIds(), "in the order they were applied");

    assertThrows(EgressException.class, pipeline::tick, "the tick shows the outage");
    assertEquals(List.of("m-1", "m-2", "m-3"), deferredIds(), "kept while the sink is down");

    sink.up();
    TickResult tick = pipeline.tick();

    assertEquals(3, tick.deferredDelivered());
    assertEquals(List.of("a:1", "a:2", "b:1"), delivered);
    assertEquals(List.of(), deferredIds());

    // A copy SQS hands over again after the deletion meets the receipts: applied once.
    delivered.clear();
    assertTrue(pipeline.process(messages(1, null, "a", "a", "b")).succeeded());
    assertEquals(List.of("a:1", "a:2", "b:1"), delivered, "the receipts' outputs, again");
  }

  @Test
  void anOrderGroupsLaterMessagesOutputsGoOutAfterTheDeferredOnes() {
    sink.down();
    assertTrue(pipeline.process(messages(1, "g", "a")).succeeded());
    assertTrue(pipeline.process(messages(2, "g", "a")).succeeded(), "behind m-1, deferred too");
    assertEquals(List.of("m-1", "m-2"), deferredIds());

    sink.up();
    assertTrue(pipeline.process(messages(3, "g", "a")).succeeded());

    assertEquals(List.of("a:1", "a:2", "a:3"), delivered, "the group's order");
    assertEquals(List.of(), deferredIds(), "the batch delivered the deferred ones first");
  }

  @Test
  void aDynamoDbStreamMovesOnWhileItsSinkIsDownAndKeepsItsOrder() {
    String table = "dynamodb:orders";
    sink.down();
    SourceBatch.Builder first = SourceBatch.changes(table);
    first.add("100", 1_000_000, bytes("a"), Map.of(SourceBatch.ORDER_GROUP, table));
    first.add("101", 1_000_000, bytes("a"), Map.of(SourceBatch.ORDER_GROUP, table));
    assertTrue(pipeline.process(first.build()).succeeded(), "the shard is not held");

    sink.up();
    SourceBatch.Builder next = SourceBatch.changes(table);
    next.add("102", 1_000_000, bytes("a"), Map.of(SourceBatch.ORDER_GROUP, table));
    assertTrue(pipeline.process(next.build()).succeeded());

    assertEquals(List.of("a:1", "a:2", "a:3"), delivered);
    assertEquals(List.of(), store.deferred("counts", table, 10));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The cost: one read more for a batch of order groups, none for a standard queue's. */
  @Test
  void onlyABatchOfOrderGroupsReadsTheDeferredMessages() {
    assertTrue(pipeline.process(messages(1, null, "a", "b")).succeeded());
    assertEquals(0, deferredReads.get(), "a standard queue promises no order");

    assertTrue(pipeline.process(messages(3, "g", "a", "b")).succeeded());
    assertEquals(1, deferredReads.get(), "one page, read with the keys");
    assertEquals(List.of("a:1", "b:1", "a:2", "b:2"), delivered);
  }

  @Test
  void deadLettersHandedToThePipelineUnderTheirIdsAreAppliedOnce() throws Exception {
    // Applied and receipted, then the invocation died on every receive: the queue's redrive
    // policy moved m-1, applied, to the dead-letter queue.
    crashAfterReceipts.set(true);
    assertThrows(RuntimeException.class, () -> pipeline.process(messages(1, null, "a")));

    QueueRecord deadLetter = new QueueRecord("orders-dlq", "m-1", "a", Map.of(), Map.of());
    BatchOutcome outcome = pipeline.deadLetterConsumer(QUEUE).accept(List.of(deadLetter));

    assertEquals(List.of(), outcome.failedItemIds());
    assertEquals(
        List.of("a:1"),
        delivered.stream().distinct().toList(),
        "its receipt's output again (same id), not a second count");
    assertTrue(pipeline.process(messages(2, null, "a")).succeeded());
    assertEquals("a:2", delivered.get(delivered.size() - 1));
  }
}
