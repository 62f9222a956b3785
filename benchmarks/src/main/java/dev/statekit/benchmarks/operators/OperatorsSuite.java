package dev.statekit.benchmarks.operators;

import dev.statekit.benchmarks.Result;
import dev.statekit.benchmarks.Suite;
import dev.statekit.stream.state.InMemoryStateTable;
import dev.statekit.stream.state.StateBackend;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The operator core beside Flink's local execution: jobs A (keyed running sum) and B (1 s tumbling
 * event-time windows) at parallelism 1 and 2 on the same generated input, then the heap that reduce
 * state takes per million keys, the cost of a checkpoint when 1,000 of 1,000,000 keys changed, and
 * of one when 1,000 of 1,000,000 open windows are new (their timers). Every job run is a fresh JVM
 * with the same flags for both engines ({@link JobFork}), warmed up before it is measured. Each job
 * runs {@code -Dstatekit.rounds=N} times (default 3), the two engines taking turns, and reports the
 * median of each engine's rounds: on a shared machine a single run can land in a busy moment.
 * {@code -Dstatekit.records=N} shortens a run (default 10,000,000).
 */
public final class OperatorsSuite implements Suite {
  private static final String NAME = "operators";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "keyed reduce and event-time windows, StateKit vs Flink 2.3 local (streaming mode)";
  }

  @Override
  public List<Result> run(PrintStream log) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    long records = Long.getLong("statekit.records", 10_000_000L);
    int rounds = Integer.getInteger("statekit.rounds", 3);
    if (rounds < 1) {
      throw new IllegalArgumentException("statekit.rounds is at least 1, got " + rounds);
    }
    if (records < 1000) {
      throw new IllegalArgumentException("statekit.records is at least 1000, got " + records);
    }
    List<Result> results = new ArrayList<>();
    log.println(
        "each run: a fresh JVM with "
            + JobFork.JVM_FLAGS
            + ", two warm-up runs on "
            + records / 10
            + " records, then the measured run");
    for (String job : new String[] {"A", "B"}) {
      for (int parallelism : new int[] {1, 2}) {
        List<Timing.Throughput> statekitRounds = new ArrayList<>();
        List<Timing.Throughput> flinkRounds = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
          statekitRounds.add(JobFork.run("statekit", job, parallelism, records, log));
          flinkRounds.add(JobFork.run("flink", job, parallelism, records, log));
          log.printf(
              "  round %d: steady StateKit %.0f, Flink %.0f records/s%n",
              round, statekitRounds.get(round - 1).steady(), flinkRounds.get(round - 1).steady());
        }
        Timing.Throughput statekit = Timing.median(statekitRounds);
        Timing.Throughput flink = Timing.median(flinkRounds);
        log.printf(
            "job %s parallelism %d, median of %d rounds: StateKit %.0f records/s, Flink %.0f"
                + " records/s (%.1fx); steady, without start-up: %.0f vs %.0f (%.1fx)%n",
            job,
            parallelism,
            rounds,
            statekit.endToEnd(),
            flink.endToEnd(),
            statekit.endToEnd() / flink.endToEnd(),
            statekit.steady(),
            flink.steady(),
            statekit.steady() / flink.steady());
        results.add(
            Result.of(NAME, "job" + job + "-p" + parallelism)
                .with("job", job)
                .with("parallelism", parallelism)
                .with("records", records)
                .with("rounds", rounds)
                .with("statekit_rps", Math.round(statekit.endToEnd()))
                .with("flink_rps", Math.round(flink.endToEnd()))
                .with("ratio", statekit.endToEnd() / flink.endToEnd())
                .with("statekit_steady_rps", Math.round(statekit.steady()))
                .with("flink_steady_rps", Math.round(flink.steady()))
                .with("steady_ratio", statekit.steady() / flink.steady()));
      }
    }
    results.add(inMemoryState(log));
    results.add(TimerCheckpoint.measure(log, NAME));
    results.add(DynamoDbCheckpoint.measure(log, NAME));
    return results;
  }

  /** Heap per million keys of reduce state, and a checkpoint with 1,000 of 1,000,000 changed. */
  private static Result inMemoryState(PrintStream log) {
    int keys = 1_000_000;
    InMemoryStateTable table = new InMemoryStateTable();
    long before = Heap.used();
    ReduceState state = new ReduceState(StateBackend.over(table, Integer.MAX_VALUE), "heap");
    state.add(0, keys, 1, 1);
    long working = Heap.used() - before;
    double first = state.checkpoint();
    long withCheckpoint = Heap.used() - before;
    state.add(0, keys, keys / 1000, 1);
    double incremental = state.checkpoint();
    log.printf(
        "reduce state: %.1f MB per million keys (%.1f MB with its checkpointed copy);"
            + " checkpoint of all keys %.0f ms, of 1,000 changed keys %.2f ms%n",
        working / 1e6, withCheckpoint / 1e6, first, incremental);
    return Result.of(NAME, "state-in-memory")
        .with("keys", keys)
        .with("heap_mb_per_million_keys", working / 1e6 * 1_000_000 / keys)
        .with("heap_mb_per_million_keys_with_checkpoint", withCheckpoint / 1e6 * 1_000_000 / keys)
        .with("first_checkpoint_ms", first)
        .with("changed_keys", 1000)
        .with("checkpoint_ms", incremental)
        .with("cached_keys", state.store.cachedKeys());
  }
}
