package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A DynamoDB stream batch cut in its keyed pass; Lambda hands the shard over again from the first
 * change not taken, in a batch of other bounds (changes written since appended), with no time left;
 * that answer is lost and the same changes come again. Every change is applied once, in order.
 */
class ChangeCutRebatchedTest {
  private static final String SPLIT = "dynamodb:orders";

  @Test
  void aCutChangeBatchRetriedWithOtherBoundsAppliesEachChangeOnceInOrder() {
    Map<String, Set<String>> delivered = new LinkedHashMap<>();
    BatchPipeline pipeline =
        BatchPipeline.builder(
                "changes",
                Pipeline.from(BatchSource.records())
                    .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
                    .keyBy(text -> "k" + Integer.parseInt(text) % 3)
                    .reduce(
                        (a, b) -> {
                          if (b.equals("4")) {
                            try {
                              Thread.sleep(400);
                            } catch (InterruptedException e) {
                              Thread.currentThread().interrupt();
                              throw new IllegalStateException(e);
                            }
                          }
                          return a + " " + b;
                        },
                        Serdes.string())
                    .to(
                        EgressOutput.to(
                            records ->
                                records.forEach(
                                    r ->
                                        delivered
                                            .computeIfAbsent(r.id(), id -> new LinkedHashSet<>())
                                            .add(r.textOrBase64())),
                            TypeName.of("test", "runs"),
                            Types.stringType())))
            .store(new InMemoryBatchStore())
            .build();

    BatchResult cut = pipeline.process(changes(0, 10), Deadline.after(Duration.ofMillis(300)));
    assertEquals(offsets(5, 10), cut.failedOffsets(), "cut after change 4: " + cut);
    BatchResult rebatched = pipeline.process(changes(5, 14), Deadline.after(Duration.ZERO));
    assertEquals(offsets(6, 14), rebatched.failedOffsets(), rebatched.toString());
    // That answer was lost: Lambda hands the same changes over again.
    assertTrue(pipeline.process(changes(5, 14)).succeeded());

    delivered.forEach((id, values) -> assertEquals(1, values.size(), id + ": " + values));
    Set<String> values = new LinkedHashSet<>();
    delivered.values().forEach(values::addAll);
    assertEquals(
        DeadlineTries.runningConcatenations(
            IntStream.range(0, 14).boxed().toList(), i -> "k" + i % 3),
        values);
  }

  private static List<String> offsets(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> Long.toString(5000 + 10L * i)).toList();
  }

  private static SourceBatch changes(int from, int to) {
    SourceBatch.Builder batch = SourceBatch.changes(SPLIT);
    for (int i = from; i < to; i++) {
      batch.add(
          Long.toString(5000 + 10L * i),
          1_000_000 + i,
          Integer.toString(i).getBytes(StandardCharsets.UTF_8),
          Map.of(SourceBatch.ORDER_GROUP, SPLIT));
    }
    return batch.build();
  }
}
