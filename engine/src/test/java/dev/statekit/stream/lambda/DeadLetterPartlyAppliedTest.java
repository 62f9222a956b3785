package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.event.BatchOutcome;
import dev.statekit.event.QueueRecord;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A FIFO queue's message fanned out over two keys, its invocations dying between the two keys'
 * writes on every receive: the redrive policy moves it to the dead-letter queue, and the group's
 * next message goes on in the source queue before the dead letter is read. The dead-letter consumer
 * then applies it to the key that had not applied it, once: every count ends right, and each output
 * id has one value.
 */
class DeadLetterPartlyAppliedTest {
  private static final String QUEUE = "orders.fifo";

  private final DeferredFixture fixture = new DeferredFixture();
  private final AtomicBoolean dieBeforeB = new AtomicBoolean();

  /** Each message "a,b" counts one for each key it names; outputs "key:count" with their ids. */
  private final Map<String, String> byId = new TreeMap<>();

  private final List<String> clashes = new java.util.ArrayList<>();

  private BatchPipeline pipeline() {
    Pipeline counts =
        Pipeline.from(BatchSource.records())
            .flatMap(
                (byte[] bytes, dev.statekit.stream.Collector<String> out) -> {
                  for (String key : new String(bytes, StandardCharsets.UTF_8).split(",")) {
                    out.collect(key + ":1");
                  }
                })
            .keyBy(value -> value.split(":")[0])
            .reduce(
                (x, y) ->
                    x.split(":")[0]
                        + ":"
                        + (Long.parseLong(x.split(":")[1]) + Long.parseLong(y.split(":")[1])),
                Serdes.string())
            .to(
                EgressOutput.to(
                    records -> {
                      synchronized (byId) {
                        for (var r : records) {
                          String before = byId.put(r.id(), r.textOrBase64());
                          if (before != null && !before.equals(r.textOrBase64())) {
                            clashes.add(r.id() + ": " + before + " then " + r.textOrBase64());
                          }
                        }
                      }
                    },
                    TypeName.of("test", "counts"),
                    Types.stringType()));
    return fixture
        .builder(counts, fixture.memory)
        .faultHook(
            (step, detail) -> {
              if (step == BatchFaultHook.Step.KEY_WRITE && detail.equals("b") && dieBeforeB.get()) {
                throw new IllegalStateException("the invocation dies before key b is written");
              }
            })
        .build();
  }

  private static QueueRecord message(String queue, String id, String body, boolean dead) {
    Map<String, String> attributes = new java.util.HashMap<>();
    attributes.put("SentTimestamp", "1000000");
    attributes.put("MessageGroupId", "g");
    if (dead) {
      attributes.put("DeadLetterQueueSourceArn", "arn:aws:sqs:eu-west-1:123456789012:" + QUEUE);
    }
    return new QueueRecord(queue, id, body, attributes, Map.of());
  }

  @Test
  void aDeadLetterAppliedToOneOfItsKeysIsAppliedToTheOtherOnceAfterTheGroupMovedOn()
      throws Exception {
    BatchPipeline pipeline = pipeline();
    dieBeforeB.set(true);
    for (int receive = 1; receive <= 3; receive++) {
      assertThrows(
          IllegalStateException.class,
          () -> pipeline.queueConsumer().accept(List.of(message(QUEUE, "m-1", "a,b", false))));
    }
    dieBeforeB.set(false);

    // Moved to the dead-letter queue: the group's next message goes on in the source queue.
    BatchOutcome next =
        pipeline.queueConsumer().accept(List.of(message(QUEUE, "m-2", "a,b", false)));
    assertEquals(List.of(), next.failedItemIds());

    BatchOutcome dead =
        pipeline
            .deadLetterConsumer(QUEUE)
            .accept(List.of(message("orders-dlq.fifo", "m-1", "a,b", true)));
    assertEquals(List.of(), dead.failedItemIds());
    // And once more, as SQS may hand a dead letter over again.
    pipeline
        .deadLetterConsumer(QUEUE)
        .accept(List.of(message("orders-dlq.fifo", "m-1", "a,b", true)));

    pipeline.queueConsumer().accept(List.of(message(QUEUE, "m-3", "a,b", false)));
    assertEquals(List.of(), clashes, "an output id with two values");
    List<String> values = List.copyOf(byId.values());
    assertTrue(values.contains("a:3") && values.contains("b:3"), "m-3 counts 3: " + byId);
    assertEquals(6, byId.size(), "one output per message and key: " + byId);
  }
}
