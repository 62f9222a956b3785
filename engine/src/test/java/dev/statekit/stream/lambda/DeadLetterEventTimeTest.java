package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.EgressRecord;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.QueueRecord;
import dev.statekit.stream.Pipeline;
import dev.statekit.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A message that failed on every receive reaches the dead-letter queue while its queue's event time
 * moves on and the tick fires its window; once the cause is fixed, the dead-letter consumer applies
 * it. It is late against its own split's watermark (the window it belongs to fired): counted late,
 * and the fired window is not delivered again with another value under its id. Nor does it move the
 * queue's watermark back.
 */
class DeadLetterEventTimeTest {
  private final ManualClock clock = new ManualClock(1_000_000);
  private final InMemoryBatchStore store = new InMemoryBatchStore(clock);
  private final AtomicBoolean broken = new AtomicBoolean(true);
  private final Map<String, String> byId = new TreeMap<>();
  private final List<String> clashes = new ArrayList<>();

  private BatchPipeline pipeline() {
    Pipeline plan =
        WindowedCounts.plan(
            timed ->
                timed.<String>process(
                    (record, out) -> {
                      if (record.value().startsWith("poison") && broken.get()) {
                        throw new IllegalStateException("a bug, fixed later");
                      }
                      out.collect(record.value().replace("poison-", ""));
                    }),
            records -> {
              for (EgressRecord r : records) {
                String before = byId.put(r.id(), r.textOrBase64());
                if (before != null && !before.equals(r.textOrBase64())) {
                  clashes.add(r.id() + ": " + before + " then " + r.textOrBase64());
                }
              }
            },
            null);
    return BatchPipeline.builder("counts", plan)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofSeconds(30))
        .build();
  }

  private static QueueRecord message(String queue, String id, String body) {
    return new QueueRecord(
        queue,
        id,
        body,
        queue.endsWith("-dlq")
            ? Map.of("DeadLetterQueueSourceArn", "arn:aws:sqs:eu-west-1:123456789012:orders")
            : Map.of(),
        Map.of());
  }

  @Test
  void aDeadLetterLateInEventTimeIsCountedLateAndRefiresNoWindow() throws Exception {
    BatchPipeline pipeline = pipeline();
    BatchOutcome first =
        pipeline
            .queueConsumer()
            .accept(
                List.of(message("orders", "m-1", "a,3"), message("orders", "m-2", "poison-a,5")));
    assertEquals(List.of("m-2"), first.failedItemIds());
    pipeline.queueConsumer().accept(List.of(message("orders", "m-3", "b,25")));
    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofMinutes(1));
      pipeline.tick();
    }
    assertEquals(
        "a@0=1",
        byId.values().stream()
            .filter(v -> v.startsWith("a@0"))
            .findFirst()
            .orElse("none: " + byId + " " + pipeline.splits()));
    long watermark =
        pipeline.splits().stream()
            .filter(s -> s.split().equals("orders"))
            .findFirst()
            .get()
            .watermark();

    broken.set(false);
    List<SourceBatch> dead =
        SourceBatches.deadLetters(List.of(message("orders-dlq", "m-2", "poison-a,5")), "orders");
    BatchResult applied = pipeline.process(dead.get(0));
    assertEquals(List.of(), applied.failedOffsets());
    assertEquals(1, applied.late(), "its window fired without it");
    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofMinutes(1));
      pipeline.tick();
    }

    assertEquals(List.of(), clashes, "a window delivered again with another value");
    assertEquals(
        watermark,
        pipeline.splits().stream()
            .filter(s -> s.split().equals("orders"))
            .findFirst()
            .get()
            .watermark(),
        "the dead letter leaves the queue's watermark where it was");
  }
}
