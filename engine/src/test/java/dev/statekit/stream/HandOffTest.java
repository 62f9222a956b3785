package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.RepeatedTest;

/**
 * The hand-off between threads under schedules that stress it: chunks of four records in queues of
 * one chunk (so chunks go back to their exchange and are refilled all the time), a checkpoint every
 * millisecond (so workers park half-done chunks while they align barriers), two readers, two keyed
 * stages of two workers, and workers that stall now and then. Every record must arrive exactly
 * once, and each key's records in the order its channel carried them.
 */
class HandOffTest {
  private static final int KEYS = 61;
  private static final long RECORDS = 60_000;

  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());

  /** One input record, or a running count per key after the first keyed stage. */
  record Item(int key, long index, long count) {}

  @RepeatedTest(3)
  void noRecordIsLostDuplicatedOrReorderedAcrossRecycledChunksAndBarriers() throws Exception {
    CollectingSink<Item> sink = Sinks.collecting();
    PipelineResult result =
        Pipeline.from(Sources.generate(RECORDS, i -> new Item((int) (i % KEYS), i, 1), i -> i, 16))
            .keyBy(Item::key, 2)
            .reduce((a, b) -> new Item(b.key(), b.index(), a.count() + 1))
            .map(
                item -> {
                  if (item.index() % 997 == 0) {
                    LockSupport.parkNanos(200_000);
                  }
                  return item;
                })
            .keyBy(Item::key, 2)
            .process(
                (Record<Item> record, KeyedContext<Integer> context, Collector<Item> out) -> {
                  Item item = record.value();
                  if (item.index() % 1009 == 0) {
                    Thread.yield();
                  }
                  // The second stage counts too: its count must match the first stage's.
                  ValueState<Long> seen = context.state(SEEN);
                  long count = seen.value() == null ? 1 : seen.value() + 1;
                  seen.update(count);
                  out.collect(item.count() == count ? item : new Item(item.key(), -1, count));
                },
                SEEN)
            .to(sink)
            .run(
                RunOptions.named("hand-off")
                    .parallelism(2)
                    .handOff(4, 1)
                    .checkpointInterval(Duration.ofMillis(1))
                    .build());

    assertTrue(result.checkpoints() > 2, "barriers were aligned: " + result);
    List<Item> out = sink.values();
    assertEquals(RECORDS, out.size(), "each record exactly once");
    Map<Integer, List<Item>> byKey = new HashMap<>();
    for (Item item : out) {
      byKey.computeIfAbsent(item.key(), k -> new ArrayList<>()).add(item);
    }
    for (Map.Entry<Integer, List<Item>> e : byKey.entrySet()) {
      List<Item> items = e.getValue();
      long[] lastIndexPerReader = {-1, -1};
      for (int i = 0; i < items.size(); i++) {
        Item item = items.get(i);
        // The reduce saw the key's records in this order: counts 1, 2, 3 ... without gaps.
        assertEquals(i + 1, item.count(), "key " + e.getKey() + " record " + i);
        // Batches of 16 go to the readers in turn: each reader's records of a key stay in order.
        int reader = (int) (item.index() / 16 % 2);
        assertTrue(
            item.index() > lastIndexPerReader[reader],
            "key "
                + e.getKey()
                + ": index "
                + item.index()
                + " after "
                + lastIndexPerReader[reader]);
        lastIndexPerReader[reader] = item.index();
      }
      assertEquals((RECORDS - e.getKey() + KEYS - 1) / KEYS, items.size(), "key " + e.getKey());
    }
  }
}
