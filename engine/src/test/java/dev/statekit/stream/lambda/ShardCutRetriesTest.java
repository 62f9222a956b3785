package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A shard's batch cut by its deadline, then Lambda's other ways of handing records over again: a
 * try cut in its keyed pass that dies before its checkpoint, retried whole with less time (cut
 * elsewhere); and a retry from the cut that fails as a whole and is bisected. Every record is
 * applied once, in order, each output id with one value.
 */
class ShardCutRetriesTest {
  private static final String SHARD = "clicks/shardId-000000000000";
  private static final int RECORDS = 10;

  private final Map<String, Set<String>> delivered = new LinkedHashMap<>();
  private final AtomicReference<BatchFaultHook.Step> crashAt = new AtomicReference<>();

  private BatchPipeline pipeline() {
    return BatchPipeline.builder(
            "cut-retries",
            Pipeline.from(BatchSource.records())
                .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
                .keyBy(text -> "k" + Integer.parseInt(text) % 2)
                .reduce(
                    (a, b) -> {
                      if (b.equals("2")) {
                        sleep(400);
                      }
                      return a + " " + b;
                    },
                    Serdes.string())
                .to(
                    EgressOutput.to(
                        records -> {
                          synchronized (delivered) {
                            records.forEach(
                                r ->
                                    delivered
                                        .computeIfAbsent(r.id(), id -> new LinkedHashSet<>())
                                        .add(r.textOrBase64()));
                          }
                        },
                        TypeName.of("test", "runs"),
                        Types.stringType())))
        .store(new InMemoryBatchStore())
        .faultHook(
            (step, detail) -> {
              if (step == crashAt.get()) {
                crashAt.set(null);
                throw new IllegalStateException("the invocation died at " + step);
              }
            })
        .build();
  }

  @Test
  void aCutTryThatDiedIsRetriedWholeWithLessTimeEachRecordOnce() {
    BatchPipeline pipeline = pipeline();
    crashAt.set(BatchFaultHook.Step.DELIVERED);
    assertThrows(
        RuntimeException.class,
        () -> pipeline.process(batch(0, RECORDS), Deadline.after(Duration.ofMillis(300))));

    BatchResult whole = pipeline.process(batch(0, RECORDS), Deadline.after(Duration.ZERO));
    assertEquals(List.of(offset(1)), whole.failedOffsets(), whole.toString());
    int from = 1;
    for (int round = 0; round < 20 && from < RECORDS; round++) {
      BatchResult next = pipeline.process(batch(from, RECORDS), Deadline.after(Duration.ZERO));
      from = next.succeeded() ? RECORDS : Integer.parseInt(next.failedOffsets().get(0)) - 1000;
    }

    assertAppliedOnceInOrder();
  }

  @Test
  void aRetryFromTheCutThatFailsWholeIsBisectedEachRecordOnce() {
    BatchPipeline pipeline = pipeline();
    BatchResult cut = pipeline.process(batch(0, RECORDS), Deadline.after(Duration.ofMillis(300)));
    assertEquals(List.of(offset(3)), cut.failedOffsets(), "cut after record 2: " + cut);

    crashAt.set(BatchFaultHook.Step.FLUSHED);
    assertThrows(RuntimeException.class, () -> pipeline.process(batch(3, RECORDS)));
    // BisectBatchOnFunctionError: the failed batch is split in two halves, tried in order.
    assertTrue(pipeline.process(batch(3, 6)).succeeded());
    assertTrue(pipeline.process(batch(6, RECORDS)).succeeded());

    assertAppliedOnceInOrder();
    assertEquals(List.of(), pipeline.givenUp());
  }

  private void assertAppliedOnceInOrder() {
    synchronized (delivered) {
      delivered.forEach(
          (id, values) -> assertEquals(1, values.size(), id + " delivered as " + values));
      Set<String> values = new LinkedHashSet<>();
      delivered.values().forEach(values::addAll);
      assertEquals(
          DeadlineTries.runningConcatenations(
              IntStream.range(0, RECORDS).boxed().toList(), i -> "k" + i % 2),
          values);
    }
  }

  private static String offset(int i) {
    return Long.toString(1000 + i);
  }

  private static SourceBatch batch(int from, int to) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    for (int i = from; i < to; i++) {
      batch.add(offset(i), 0, Integer.toString(i).getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
