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
                        + r.value().index()
                        + " ts="
                        + r.timestamp()
                        + " at="
                        + r.position()
                        + " #"
                        + r.value().count()))
        .to(sink);
  }

  private static Source<Item> input() {
    return Sources.generate(RECORDS, i -> new Item((int) (i % 11), i, 1), i -> 1000 + i, 9);
  }

  private static Source<Item> asRecords() {
    List<Record<Item>> records =
        java.util.stream.LongStream.range(0, RECORDS)
            .mapToObj(i -> Record.of(new Item((int) (i % 11), i, 1), 1000 + i))
            .toList();
    return Sources.fromRecords(records, 9);
  }

  private static RunOptions options(
      String name, StateTable table, CheckpointStore store, int chunk, int queue, int readers) {
    return RunOptions.named(name)
        .parallelism(readers)
        .handOff(chunk, queue)
        .stateBackend(StateBackend.over(table, 3))
        .checkpointStore(store)
        .checkpointInterval(Duration.ofMillis(1))
        .build();
  }

  @ParameterizedTest
  @CsvSource({"1, 1, 1", "2, 1, 1", "3, 2, 1", "1024, 4, 1", "1, 1, 2", "2, 1, 2", "1024, 4, 2"})
  void restoredRunsWriteTheRecordsOfAnUninterruptedOne(int chunk, int queue, int readers)
      throws Exception {
    CollectingSink<String> expected = Sinks.collecting();
    // The uninterrupted run reads the same records as objects (fromRecords): the parts path must
    // give the keyed stage the records the object path gives it.
    pipeline(asRecords(), expected)
        .run(
            options(
                "clean-" + UUID.randomUUID(),
                new InMemoryStateTable(),
                CheckpointStore.inMemory(),
                chunk,
                queue,
                readers));
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
          PipelineResult result = killable.run(options(name, table, store, chunk, queue, readers));
          restores += result.restoredFrom() > 0 ? 1 : 0;
          break;
        } catch (PipelineFailedException e) {
          assertInstanceOf(Faults.Crash.class, e.getCause(), () -> "unexpected failure: " + e);
        }
      }
      // With two readers a key's running count at a record depends on how they interleave.
      assertEquals(
          sorted(withoutCounts(expected.values())),
          sorted(withoutCounts(actual.values())),
          "seed " + seed);
      assertCountsOnce(actual.values());
    }
    assertTrue(restores > 0, "some final runs restored a checkpoint");
  }

  private static List<String> withoutCounts(List<String> lines) {
    return lines.stream().map(l -> l.substring(0, l.indexOf(" #"))).toList();
  }

  /** Each key's running counts are 1 to n, each once: every record counted once. */
  private static void assertCountsOnce(List<String> lines) {
    java.util.Map<String, java.util.Set<Long>> counts = new java.util.HashMap<>();
    for (String line : lines) {
      String key = line.substring(0, line.indexOf('/'));
      long count = Long.parseLong(line.substring(line.indexOf(" #") + 2));
      assertTrue(
          counts.computeIfAbsent(key, k -> new java.util.HashSet<>()).add(count),
          "key " + key + " counted " + count + " twice");
    }
    counts.forEach(
        (key, set) -> {
          for (long n = 1; n <= set.size(); n++) {
            assertTrue(set.contains(n), "key " + key + " counts " + set);
          }
        });
  }

  private static List<String> sorted(List<String> lines) {
    return lines.stream().sorted().toList();
  }
}
