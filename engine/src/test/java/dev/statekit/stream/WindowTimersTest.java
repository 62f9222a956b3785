package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.CountingStateTable;
import dev.statekit.stream.state.InMemoryStateTable;
import dev.statekit.stream.state.StateBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Window timers are checkpointed by reference: a checkpoint writes the timers set since the last
 * one, not those of every open window; a restore brings them all back; and fired timers' items are
 * deleted once a later checkpoint completes.
 */
class WindowTimersTest {
  private final InMemoryStateTable inner = new InMemoryStateTable();
  private final CountingStateTable table = new CountingStateTable(inner);
  private final CheckpointStore store = CheckpointStore.inMemory();
  private final CollectingSink<String> sink = Sinks.collecting();
  private final List<Record<Event>> records = new ArrayList<>();

  /** Runs over the records so far (a restored run reads only the new ones). */
  private long run(boolean last) throws InterruptedException {
    table.collectionBytesPut.set(0);
    Pipeline.from(Sources.fromRecords(records, 100))
        .withWatermarks(
            WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ZERO)
                .withTimestamps(Event::time))
        .keyBy(Event::key, 2)
        .window(Windows.tumbling(Duration.ofMinutes(1)))
        .aggregate(
            AggregateFunction.count(),
            Serdes.longs(),
            (String key, TimeWindow w, Long n) -> key + "=" + n)
        .to(sink)
        .run(
            RunOptions.named("timers")
                .stateBackend(StateBackend.over(table, Integer.MAX_VALUE))
                .checkpointStore(store)
                .fireWindowsAtEnd(last)
                .build());
    return table.collectionBytesPut.get();
  }

  private void add(int fromKey, int toKey, long time) {
    for (int k = fromKey; k < toKey; k++) {
      records.add(Record.of(new Event("k" + k, time + k, 1)));
    }
  }

  @Test
  void checkpointsWriteOnlyNewTimersAndRestoresBringAllBack() throws Exception {
    add(0, 5000, 0);
    long opened = run(false);

    add(0, 5, 50_000); // into open windows: no new timer
    add(5000, 5005, 0); // five new windows
    long added = run(false);
    assertTrue(added > 0 && added <= opened * 2 * 5 / 5000, opened + " bytes, then " + added);
    assertTrue(sink.values().isEmpty(), "windows stay open");

    run(true);
    List<String> results = sink.values();
    assertEquals(5005, results.size());
    assertTrue(results.containsAll(List.of("k0=2", "k4=2", "k5=1", "k4999=1", "k5004=1")));
    assertEquals(0, inner.collectionSize("timers#1.0-window#timers"), "fired timers' items");
  }
}
