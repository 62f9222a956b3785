package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.testing.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A queue message that fails (and goes back to the queue, unapplied) does not move the queue's
 * watermark: each applied message counts its own records' times. Before, every message counted the
 * running maximum of the whole batch, failed messages before it included, so one transient failure
 * of a message far ahead in event time made on-time messages of the next batch late.
 */
class FailedMessageWatermarkTest {
  private static final AtomicBoolean FAIL_ONCE = new AtomicBoolean();

  private final CollectingEgressSink results = new CollectingEgressSink();
  private final InMemoryBatchStore store = new InMemoryBatchStore();
  private final ManualClock clock = new ManualClock(1_000_000);

  private BatchPipeline counts() {
    Pipeline plan =
        WindowedCounts.plan(
            timed ->
                timed.<String>process(
                    (record, out) -> {
                      // e.g. a lookup that times out once
                      if (record.value().startsWith("a,") && FAIL_ONCE.getAndSet(false)) {
                        throw new IllegalStateException("downstream lookup timed out");
                      }
                      out.collect(record.value());
                    }),
            results,
            null);
    return BatchPipeline.builder("counts", plan)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }

  private static SourceBatch queue(String... idText) {
    return WindowedCounts.queue("orders", idText);
  }

  private static SourceBatch fifo(String... idGroupText) {
    SourceBatch.Builder batch = SourceBatch.unordered("orders.fifo");
    for (int i = 0; i < idGroupText.length; i += 3) {
      batch.add(
          idGroupText[i],
          0,
          idGroupText[i + 2].getBytes(StandardCharsets.UTF_8),
          java.util.Map.of(SourceBatch.ORDER_GROUP, idGroupText[i + 1]));
    }
    return batch.build();
  }

  /**
   * FIFO group g1 holds a@5000 then a@4000; had a@5000 not failed, both would count (a batch's
   * records are late only against the watermark before it). a@5000 fails once, so the queue hands
   * both back; meanwhile g2's b@100 is applied, and the batch records the queue's watermark as
   * 4999, taken from the failed message. On redelivery a@4000 is late: a transient failure changed
   * the result.
   */
  @Test
  void aFifoMessageSentBackWithItsFailedPredecessorIsNotLateWhenRedelivered() {
    BatchPipeline pipeline = counts();
    FAIL_ONCE.set(true);
    BatchResult first =
        pipeline.process(fifo("m1", "g1", "a,5000", "m2", "g1", "a,4000", "m3", "g2", "b,100"));
    assertEquals(List.of("m1", "m2"), first.failedOffsets(), "g1 goes back to the queue");
    BatchResult second = pipeline.process(fifo("m1", "g1", "a,5000", "m2", "g1", "a,4000"));
    assertEquals(2, second.applied());
    assertEquals(
        0,
        second.late(),
        "a@4000 came after a@5000 in its group, as in the first delivery; queue state "
            + pipeline.splits());
  }

  @Test
  void aMessageThatFailedDoesNotMoveTheWatermark() {
    BatchPipeline pipeline = counts();
    FAIL_ONCE.set(true);
    BatchResult first = pipeline.process(queue("m1", "a,5000", "m2", "b,100"));
    assertEquals(List.of("m1"), first.failedOffsets(), "m1 failed and goes back to the queue");
    assertEquals(1, first.applied());

    // The queue hands m1 back, with a new message on time against what was applied (b@100).
    BatchResult second = pipeline.process(queue("m1", "a,5000", "m3", "c,200"));
    assertEquals(
        0,
        second.late(),
        "c@200 is on time: the only message applied before it is b@100 (watermark 99);"
            + " it was late against "
            + first.watermark()
            + "/"
            + pipeline.splits());
  }
}
