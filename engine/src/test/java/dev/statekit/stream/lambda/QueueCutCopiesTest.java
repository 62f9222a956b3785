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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A queue batch cut in its keyed pass, then handed over again with copies of messages it applied on
 * both sides of the cut: on a FIFO queue the whole batch again (its answer was lost), now with no
 * time left; on a standard queue the messages sent back mixed with copies of receipted ones. Each
 * message is applied once, each group's results go out in its order, each id with one value.
 */
class QueueCutCopiesTest {
  private final Map<String, Set<String>> delivered = new LinkedHashMap<>();
  private final List<String> order = new ArrayList<>();

  private BatchPipeline pipeline(String slow) {
    return BatchPipeline.builder(
            "copies",
            Pipeline.from(BatchSource.records())
                .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
                .keyBy(text -> text.substring(0, 1))
                .reduce(
                    (a, b) -> {
                      if (b.equals(slow)) {
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
                        records -> {
                          synchronized (delivered) {
                            records.forEach(
                                r -> {
                                  delivered
                                      .computeIfAbsent(r.id(), id -> new LinkedHashSet<>())
                                      .add(r.textOrBase64());
                                  order.add(r.textOrBase64());
                                });
                          }
                        },
                        TypeName.of("test", "runs"),
                        Types.stringType())))
        .store(new InMemoryBatchStore())
        .build();
  }

  @Test
  void aFifoBatchCutAndHandedOverAgainWholeWithNoTimeLeftAppliesEachOnceInGroupOrder() {
    BatchPipeline pipeline = pipeline("a2");
    List<String> all = List.of("a1", "b1", "a2", "b2", "a3", "b3", "a4");

    BatchResult cut = pipeline.process(fifo(all), Deadline.after(Duration.ofMillis(300)));
    assertEquals(List.of("b2", "a3", "b3", "a4"), cut.failedOffsets(), cut.toString());
    // The answer was lost: every message comes again, with no time left this try.
    BatchResult again = pipeline.process(fifo(all), Deadline.after(Duration.ZERO));
    assertEquals(List.of("b2", "a3", "b3", "a4"), again.failedOffsets(), again.toString());
    assertTrue(pipeline.process(fifo(again.failedOffsets())).succeeded());

    assertRunning(Map.of("a", "a1 a2 a3 a4", "b", "b1 b2 b3"));
    synchronized (delivered) {
      for (String group : List.of("a", "b")) {
        List<String> mine = order.stream().filter(t -> t.startsWith(group)).toList();
        for (int i = 1; i < mine.size(); i++) {
          assertTrue(
              mine.get(i).length() >= mine.get(i - 1).length()
                  || mine.subList(0, i).contains(mine.get(i)),
              "group " + group + " went out of order: " + mine);
        }
      }
    }
  }

  @Test
  void aStandardBatchCutWithCopiesOfReceiptedMessagesOnBothSidesAppliesEachOnce() {
    BatchPipeline pipeline = pipeline("a3");
    assertTrue(pipeline.process(standard(List.of("a1", "b1", "a2"))).succeeded());

    // a1 and a2 come again (their deletes were lost), one before the cut, one after it.
    BatchResult cut =
        pipeline.process(
            standard(List.of("a1", "b2", "a3", "b3", "a2", "a4")),
            Deadline.after(Duration.ofMillis(300)));
    assertEquals(List.of("b3", "a4"), cut.failedOffsets(), cut.toString());
    // Lambda's answer goes out; b3 comes again beside another copy of a2 and of a3.
    assertTrue(pipeline.process(standard(List.of("a2", "b3", "a3", "a4"))).succeeded());

    assertRunning(Map.of("a", "a1 a2 a3 a4", "b", "b1 b2 b3"));
  }

  private void assertRunning(Map<String, String> last) {
    synchronized (delivered) {
      delivered.forEach((id, values) -> assertEquals(1, values.size(), id + ": " + values));
      Set<String> values = new LinkedHashSet<>();
      delivered.values().forEach(values::addAll);
      Set<String> expected = new LinkedHashSet<>();
      last.values()
          .forEach(
              run -> {
                String[] parts = run.split(" ");
                for (int i = 1; i <= parts.length; i++) {
                  expected.add(String.join(" ", List.of(parts).subList(0, i)));
                }
              });
      assertEquals(new java.util.TreeSet<>(expected), new java.util.TreeSet<>(values));
    }
  }

  private static SourceBatch fifo(List<String> ids) {
    SourceBatch.Builder batch = SourceBatch.unordered("orders.fifo");
    for (String id : ids) {
      batch.add(
          id,
          1_000_000,
          id.getBytes(StandardCharsets.UTF_8),
          Map.of(SourceBatch.ORDER_GROUP, id.substring(0, 1)));
    }
    return batch.build();
  }

  private static SourceBatch standard(List<String> ids) {
    SourceBatch.Builder batch = SourceBatch.unordered("orders");
    for (String id : ids) {
      batch.add(id, 1_000_000, id.getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }
}
