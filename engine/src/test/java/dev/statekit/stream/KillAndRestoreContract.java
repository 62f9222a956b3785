package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateBackend;
import dev.statekit.stream.state.StateTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * Kills a two-stage keyed pipeline at random points, including while checkpoints are written,
 * restores it until it finishes, and compares the committed output with an uninterrupted run's:
 * with one source reader (reduce, then sliding windows over the running sums) and with the source
 * split over two readers (sliding windows, then a running sum of the window results: the order of
 * records from two readers varies between runs, the windows' results do not).
 */
abstract class KillAndRestoreContract {
  private static final int RECORDS = 2000;
  private static final int SEEDS = 4;

  /** A fresh state table for one pipeline run series. */
  abstract StateTable table();

  /** A fresh checkpoint store. */
  abstract CheckpointStore checkpointStore();

  /** Keys kept in memory per operator and worker (small values make restores read through). */
  abstract int maxCachedKeys();

  /** Times jitter within the watermark bound, so no record is late in either stage. */
  private static Source<Event> input(long seed) {
    Random random = new Random(seed);
    List<Record<Event>> events = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      long time = i * 5L + random.nextInt(40);
      events.add(Record.of(new Event("k" + random.nextInt(20), time, random.nextInt(100))));
    }
    return Sources.fromRecords(events, 25);
  }

  private static Pipeline pipeline(Source<Event> source, Sink<String> sink) {
    return Pipeline.from(source)
        .withWatermarks(
            WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(50))
                .withTimestamps(Event::time))
        .keyBy(Event::key, 2)
        .reduce(
            (a, b) -> new Event(a.key(), b.time(), a.value() + b.value()), Serdes.json(Event.class))
        .keyBy(Event::key, 3)
        .window(Windows.sliding(Duration.ofMillis(200), Duration.ofMillis(100)))
        .aggregate(
            new WindowsTest.SumAndCount(),
            Serdes.json(long[].class),
            (String key, TimeWindow w, long[] acc) ->
                WindowReference.line(key, w.start(), w.end(), acc[0], acc[1]))
        .to(sink);
  }

  private static Pipeline splitSourcePipeline(Source<Event> source, Sink<String> sink) {
    return Pipeline.from(source)
        .withWatermarks(
            WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(50))
                .withTimestamps(Event::time))
        .keyBy(Event::key, 2)
        .window(Windows.sliding(Duration.ofMillis(200), Duration.ofMillis(100)))
        .aggregate(
            new WindowsTest.SumAndCount(),
            Serdes.json(long[].class),
            (String key, TimeWindow w, long[] acc) ->
                new Event(key, w.end(), acc[0] * 1000 + acc[1]))
        .keyBy(Event::key, 3)
        .reduce(
            (a, b) -> new Event(a.key(), b.time(), a.value() + b.value()), Serdes.json(Event.class))
        .map(e -> e.key() + "@" + e.time() + "=" + e.value())
        .to(sink);
  }

  /** How records are handed between threads: the default unless a run series says otherwise. */
  RunOptions.Builder handOff(RunOptions.Builder options) {
    return options;
  }

  private RunOptions options(String name, StateTable table, CheckpointStore store, int readers) {
    return handOff(
            RunOptions.named(name)
                .parallelism(readers)
                .stateBackend(StateBackend.over(table, maxCachedKeys()))
                .checkpointStore(store)
                .checkpointInterval(Duration.ofMillis(2)))
        .build();
  }

  @Test
  void restoredRunsEndWithTheResultsOfAnUninterruptedOne() throws Exception {
    killAndRestore(KillAndRestoreContract::pipeline, 1);
  }

  @Test
  void restoredRunsOfASplitSourceEndWithTheResultsOfAnUninterruptedOne() throws Exception {
    killAndRestore(KillAndRestoreContract::splitSourcePipeline, 2);
  }

  private void killAndRestore(
      BiFunction<Source<Event>, Sink<String>, Pipeline> pipeline, int readers) throws Exception {
    Set<Faults.Where> hit = EnumSet.noneOf(Faults.Where.class);
    int restores = 0;
    for (long seed = 1; seed <= SEEDS; seed++) {
      CollectingSink<String> expected = Sinks.collecting();
      pipeline
          .apply(input(seed), expected)
          .run(options("clean-" + UUID.randomUUID(), table(), checkpointStore(), readers));
      assertTrue(expected.values().size() > 100, "windows fired: " + expected.values().size());

      String name = "killed-" + UUID.randomUUID();
      Faults faults = new Faults(seed);
      StateTable table = faults.table(table());
      CheckpointStore store = faults.store(checkpointStore());
      CollectingSink<String> actual = Sinks.collecting();
      Pipeline killable = pipeline.apply(faults.source(input(seed)), actual);
      for (int attempt = 0; ; attempt++) {
        Faults.Where where = attempt < 6 ? faults.arm() : Faults.Where.NONE;
        if (where == Faults.Where.NONE) {
          faults.disarm();
        }
        try {
          PipelineResult result = killable.run(options(name, table, store, readers));
          restores += result.restoredFrom() > 0 ? 1 : 0;
          break;
        } catch (PipelineFailedException e) {
          assertInstanceOf(Faults.Crash.class, e.getCause(), () -> "unexpected failure: " + e);
          hit.add(where);
        }
      }
      assertEquals(sorted(expected.values()), sorted(actual.values()), "seed " + seed);
    }
    assertTrue(hit.size() >= 3, "kills at several kinds of points: " + hit);
    assertTrue(restores > 0, "some final runs restored a checkpoint");
  }

  private static List<String> sorted(List<String> lines) {
    return lines.stream().sorted().toList();
  }
}
