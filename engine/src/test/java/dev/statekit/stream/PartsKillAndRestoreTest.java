package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.InMemoryStateTable;
import dev.statekit.stream.state.StateBackend;
import dev.statekit.stream.state.StateTable;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kills and restores a job whose generated records reach the keyed stage as their parts (nothing
 * between the source and keyBy): the committed records (key, value, timestamp, position) must be
 * those of an uninterrupted run, each once.
 */
class PartsKillAndRestoreTest {
  private static final long RECORDS = 3000;

  record Item(int key, long index, long count) {}

  private static Pipeline pipeline(Source<Item> source, Sink<String> sink) {
    return Pipeline.from(source)
        .keyBy(Item::key, 2)
        .reduce(
            (a, b) -> new Item(b.key(), b.index(), a.count() + b.count()), Serdes.json(Item.class))
        .keyBy(Item::key, 2)
        .process(
            (Record<Item> r, KeyedContext<Integer> c, Collector<String> o) ->
                o.collect(
                    c.key()
                        + "/"
                        + r.key()
                        + " "
                        + r.value()
                        + " ts="
                        + r.timestamp()
                        + " at="
                        + r.position()))
        .to(sink);
  }

  private static Source<Item> input() {
    return Sources.generate(RECORDS, i -> new Item((int) (i % 11), i, 1), i -> 1000 + i, 9);
  }

  private static RunOptions options(
      String name, StateTable table, CheckpointStore store, int chunk, int queue) {
    return RunOptions.named(name)
        .parallelism(1)
        .handOff(chunk, queue)
        .stateBackend(StateBackend.over(table, 3))
        .checkpointStore(store)
        .checkpointInterval(Duration.ofMillis(1))
        .build();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "2, 1", "3, 2", "1024, 4"})
  void restoredRunsWriteTheRecordsOfAnUninterruptedOne(int chunk, int queue) throws Exception {
    CollectingSink<String> expected = Sinks.collecting();
    pipeline(input(), expected)
        .run(
            options(
                "clean-" + UUID.randomUUID(),
                new InMemoryStateTable(),
                CheckpointStore.inMemory(),
                chunk,
                queue));
    assertEquals(RECORDS, expected.values().size());
    int restores = 0;
    for (long seed = 1; seed <= 3; seed++) {
      Faults faults = new Faults(seed);
      StateTable table = faults.table(new InMemoryStateTable());
      CheckpointStore store = faults.store(CheckpointStore.inMemory());
      CollectingSink<String> actual = Sinks.collecting();
      Pipeline killable = pipeline(faults.source(input()), actual);
      String name = "killed-" + UUID.randomUUID();
      for (int attempt = 0; ; attempt++) {
        if (attempt < 6) {
          faults.arm();
        } else {
          faults.disarm();
        }
        try {
          PipelineResult result = killable.run(options(name, table, store, chunk, queue));
          restores += result.restoredFrom() > 0 ? 1 : 0;
          break;
        } catch (PipelineFailedException e) {
          assertInstanceOf(Faults.Crash.class, e.getCause(), () -> "unexpected failure: " + e);
        }
      }
      assertEquals(sorted(expected.values()), sorted(actual.values()), "seed " + seed);
    }
    assertTrue(restores > 0, "some final runs restored a checkpoint");
  }

  private static List<String> sorted(List<String> lines) {
    return lines.stream().sorted().toList();
  }
}
