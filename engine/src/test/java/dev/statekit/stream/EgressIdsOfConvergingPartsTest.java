package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.statekit.egress.EgressRecord;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.InMemoryStateTable;
import dev.statekit.stream.state.StateBackend;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * An order's items (flatMap) are keyed apart by product, each to its own worker, then keyed back
 * together by order: the items of one order reach the output from several workers, in another order
 * in every run. Each item keeps its id across runs, so a sink that drops a repeated id (SQS FIFO
 * deduplication) keeps each item once after a failed delivery and the replay. Ids counted the items
 * of one source record in arrival order, and a replay gave them each other's.
 */
class EgressIdsOfConvergingPartsTest {
  private static final int ORDERS = 2000;
  private static final int ITEMS = 4;
  private static final TypeName OUT = TypeName.of("test", "items");

  private static Pipeline pipeline(Source<String> source, EgressOutput<String> out) {
    return Pipeline.from(source)
        .<String>flatMap(
            (order, items) -> {
              for (int j = 0; j < ITEMS; j++) {
                items.collect(order + "#p" + j);
              }
            })
        .keyBy(item -> item.substring(item.indexOf('#') + 1), ITEMS)
        .<String>process((r, ctx, o) -> o.collect(r.value()))
        .keyBy(item -> item.substring(0, item.indexOf('#')), 1)
        .<String>process((r, ctx, o) -> o.collect(r.value()))
        .to(out);
  }

  private static Source<String> input() {
    return Sources.generate(ORDERS, i -> "o" + i, i -> 0L, 50);
  }

  private static RunOptions options(String name, StateBackend backend, CheckpointStore store) {
    return RunOptions.named(name)
        .parallelism(1)
        .stateBackend(backend)
        .checkpointStore(store)
        .checkpointInterval(Duration.ofMillis(2))
        .build();
  }

  private static Map<String, String> cleanRun() throws Exception {
    Map<String, String> table = new TreeMap<>();
    pipeline(
            input(),
            EgressOutput.to(
                records -> {
                  synchronized (table) {
                    for (EgressRecord r : records) {
                      assertEquals(null, table.put(r.id(), r.textOrBase64()), r.id());
                    }
                  }
                },
                OUT,
                Types.stringType()))
        .run(
            options(
                "clean-" + UUID.randomUUID(),
                StateBackend.over(new InMemoryStateTable(), 1000),
                CheckpointStore.inMemory()));
    return table;
  }

  /** A run over the same input gives each record the same id. */
  @Test
  void twoRunsOverTheSameInputNameEachItemAlike() throws Exception {
    Map<String, String> first = cleanRun();
    Map<String, String> second = cleanRun();
    assertEquals(ORDERS * ITEMS, first.size());
    assertEquals(ORDERS * ITEMS, second.size());
    int differ = 0;
    String example = null;
    for (var e : first.entrySet()) {
      if (!e.getValue().equals(second.get(e.getKey()))) {
        differ++;
        example = e.getKey() + " = " + e.getValue() + " then " + second.get(e.getKey());
      }
    }
    assertEquals(0, differ, "ids naming another item in the second run, e.g. " + example);
  }

  /**
   * A sink that deduplicates by id (SQS FIFO: a repeated id within five minutes is dropped) and
   * fails once part way through a delivery (a batch entry failing, a Lambda timeout): after the
   * restore, the replay delivers the same items again, and dedup must keep each item once.
   */
  @Test
  void aDeduplicatingSinkKeepsEachItemOnceAcrossAFailedDelivery() throws Exception {
    for (int attempt = 0; attempt < 5; attempt++) {
      Set<String> seen = new HashSet<>();
      List<String> kept = new ArrayList<>();
      AtomicBoolean failed = new AtomicBoolean();
      EgressOutput<String> out =
          EgressOutput.to(
              records -> {
                synchronized (kept) {
                  int failAt = -1;
                  if (!failed.get() && records.size() >= 2 * ITEMS) {
                    failAt = records.size() / 2;
                  }
                  for (int i = 0; i < records.size(); i++) {
                    if (i == failAt) {
                      failed.set(true);
                      throw new IllegalStateException("delivery failed part way");
                    }
                    if (seen.add(records.get(i).id())) {
                      kept.add(records.get(i).textOrBase64());
                    }
                  }
                }
              },
              OUT,
              Types.stringType());
      StateBackend backend = StateBackend.over(new InMemoryStateTable(), 1000);
      CheckpointStore store = CheckpointStore.inMemory();
      String name = "dedup-" + UUID.randomUUID();
      Pipeline p = pipeline(input(), out);
      for (int run = 0; ; run++) {
        try {
          p.run(options(name, backend, store));
          break;
        } catch (PipelineFailedException e) {
          assertInstanceOf(IllegalStateException.class, rootCause(e));
          assertEquals(0, run, "fails once");
        }
      }
      assertEquals(true, failed.get(), "a delivery failed");
      Map<String, Integer> counts = new TreeMap<>();
      for (String v : kept) {
        counts.merge(v, 1, Integer::sum);
      }
      List<String> wrong = new ArrayList<>();
      for (long i = 0; i < ORDERS; i++) {
        for (int j = 0; j < ITEMS; j++) {
          String item = "o" + i + "#p" + j;
          int n = counts.getOrDefault(item, 0);
          if (n != 1) {
            wrong.add(item + " x" + n);
          }
        }
      }
      assertEquals(List.of(), wrong, "attempt " + attempt);
    }
  }

  private static Throwable rootCause(Throwable t) {
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }
}
