package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.EgressRecord;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.InMemoryStateTable;
import dev.statekit.stream.state.StateBackend;
import dev.statekit.stream.state.StateTable;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A pipeline run in process delivers to an {@link EgressOutput} at least once: a run killed after a
 * delivery and before its checkpoint delivers those records again after the restore. A sink that
 * writes by id (a table) must then end as an uninterrupted run leaves it: each record under the id
 * the uninterrupted run gave it, no record missing or kept twice under two ids. The records here
 * share one timestamp, as records of a source without event time do: ids made of key and timestamp
 * counted from each checkpoint named records by where checkpoints fell, so a replay gave a record
 * another record's id and its own to another.
 */
class EgressIdsKillAndRestoreTest {
  private static final int RECORDS = 3000;

  private static Pipeline pipeline(Source<String> source, Map<String, String> table) {
    return Pipeline.from(source)
        .keyBy(s -> s.substring(0, 2), 2)
        .reduce((a, b) -> a.substring(0, 3) + (Long.parseLong(a.substring(3)) + 1))
        .map(s -> s)
        .to(
            EgressOutput.to(
                records -> {
                  synchronized (table) {
                    for (EgressRecord record : records) {
                      table.put(record.id(), record.textOrBase64());
                    }
                  }
                },
                TypeName.of("test", "counts"),
                Types.stringType()));
  }

  private static Source<String> input() {
    List<Record<String>> records = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      records.add(Record.of("k" + (i % 7) + ":1", 0L));
    }
    return Sources.fromRecords(records, 25);
  }

  private static RunOptions options(
      String name, StateTable table, CheckpointStore store, int readers) {
    return RunOptions.named(name)
        .parallelism(readers)
        .stateBackend(StateBackend.over(table, 1000))
        .checkpointStore(store)
        .checkpointInterval(Duration.ofMillis(2))
        .build();
  }

  /** The table an uninterrupted run with {@code readers} source readers leaves. */
  private static Map<String, String> uninterrupted(int readers) throws Exception {
    Map<String, String> table = new TreeMap<>();
    pipeline(input(), table)
        .run(
            options(
                "clean-" + UUID.randomUUID(),
                new InMemoryStateTable(),
                CheckpointStore.inMemory(),
                readers));
    return table;
  }

  /** One source reader: every run computes each record's count alike. */
  @Test
  void aTableWrittenByIdEndsAsAnUninterruptedRunLeavesIt() throws Exception {
    Map<String, String> expected = uninterrupted(1);
    assertEquals(RECORDS, expected.size());
    for (long seed = 1; seed <= 6; seed++) {
      assertEquals(expected, killAndRestore(seed, 1), "seed " + seed);
    }
  }

  /**
   * Two source readers: records of the two splits meet each key in another order in every run, so a
   * record's count may differ, but the table holds each record once, under the uninterrupted run's
   * id, and each key's counts 1 to its number of records once each.
   */
  @Test
  void withTwoReadersTheTableHoldsEachRecordOnceAndEachCountOnce() throws Exception {
    Map<String, String> expected = uninterrupted(2);
    for (long seed = 1; seed <= 6; seed++) {
      Map<String, String> actual = killAndRestore(seed, 2);
      assertEquals(expected.keySet(), actual.keySet(), "seed " + seed);
      assertEquals(
          expected.values().stream().sorted().toList(),
          actual.values().stream().sorted().toList(),
          "seed " + seed);
    }
  }

  private int restores;

  private Map<String, String> killAndRestore(long seed, int readers) throws Exception {
    Faults faults = new Faults(seed);
    StateTable table = faults.table(new InMemoryStateTable());
    CheckpointStore store = faults.store(CheckpointStore.inMemory());
    Map<String, String> actual = new TreeMap<>();
    Pipeline killable = pipeline(faults.source(input()), actual);
    String name = "killed-" + UUID.randomUUID();
    for (int attempt = 0; ; attempt++) {
      if ((attempt < 6 ? faults.arm() : Faults.Where.NONE) == Faults.Where.NONE) {
        faults.disarm();
      }
      try {
        restores += killable.run(options(name, table, store, readers)).restoredFrom() > 0 ? 1 : 0;
        return actual;
      } catch (PipelineFailedException e) {
        assertInstanceOf(Faults.Crash.class, e.getCause(), () -> "unexpected failure: " + e);
      }
    }
  }

  @org.junit.jupiter.api.AfterEach
  void someRunsRestored() {
    assertTrue(restores > 0, "some final runs restored a checkpoint");
  }
}
