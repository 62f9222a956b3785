package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.InMemoryStateTable;
import dev.statekit.stream.state.StateBackend;
import dev.statekit.stream.state.StateTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills runs of pipelines with a dead-letter {@code process} step, session windows and a
 * late-records output at random points (the source, state and timer writes, checkpoint parts and
 * completion, a map step, a sink writer preparing or committing), with each restore choosing the
 * keyed stages' parallelism anew, and compares every output with an uninterrupted run's: one reader
 * with late records, and two readers feeding sessions then a running sum (no late records, so the
 * readers' interleaving changes nothing).
 */
class SessionsDeadLettersKillAndRestoreTest {
  static final AtomicInteger opCountdown = new AtomicInteger(-1);
  static final AtomicInteger sinkCountdown = new AtomicInteger(-1);

  /** The uninterrupted run sees no injected crash (the last test's countdowns may be left). */
  @BeforeEach
  void noCrashes() {
    opCountdown.set(-1);
    sinkCountdown.set(-1);
  }

  static Source<Event> input(long seed) {
    Random random = new Random(seed);
    List<Record<Event>> events = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      long time = i * 3L + random.nextInt(150);
      events.add(Record.of(new Event("k" + random.nextInt(12), time, random.nextInt(100))));
    }
    return Sources.fromRecords(events, 25);
  }

  /**
   * The source's events past a parse step that dead-letters every 13th value and a map that crashes
   * when the countdown reaches zero, with event time bounded by {@code outOfOrder}.
   */
  private static DataStream<Event> parsed(
      Source<Event> source, Sink<DeadLetter<Event>> dead, Duration outOfOrder) {
    return Pipeline.from(source)
        .process(
            "parse",
            (Record<Event> r, Collector<Event> out) -> {
              out.collect(r.value());
              if (r.value().value() % 13 == 0) {
                throw new IllegalStateException("bad " + r.value());
              }
            },
            FailurePolicy.deadLetter(dead))
        .map(
            e -> {
              if (opCountdown.get() > 0 && opCountdown.decrementAndGet() == 0) {
                throw new Faults.Crash("in map");
              }
              return e;
            })
        .withWatermarks(
            WatermarkStrategy.<Event>boundedOutOfOrderness(outOfOrder).withTimestamps(Event::time));
  }

  static Pipeline pipeline(
      Source<Event> source,
      int partitions,
      Sink<String> sink,
      Sink<DeadLetter<Event>> dead,
      Sink<Event> late) {
    return parsed(source, dead, Duration.ofMillis(50))
        .keyBy(Event::key, partitions)
        .window(Windows.session(Duration.ofMillis(12)))
        .lateRecordsTo(late)
        .aggregate(
            new WindowsTest.SumAndCount(),
            dev.statekit.stream.serde.Serdes.json(long[].class),
            (String key, TimeWindow w, long[] acc) ->
                WindowReference.line(key, w.start(), w.end(), acc[0], acc[1]))
        .to(sink);
  }

  static Pipeline twoStages(
      Source<Event> source,
      int first,
      int second,
      Sink<String> sink,
      Sink<DeadLetter<Event>> dead,
      Sink<Event> late) {
    return parsed(source, dead, Duration.ofMillis(400))
        .keyBy(Event::key, first)
        .window(Windows.session(Duration.ofMillis(12)))
        .lateRecordsTo(late)
        .aggregate(
            new WindowsTest.SumAndCount(),
            dev.statekit.stream.serde.Serdes.json(long[].class),
            (String key, TimeWindow w, long[] acc) ->
                new Event(key, w.end(), acc[0] * 1000 + acc[1]))
        .keyBy(Event::key, second)
        .reduce(
            (a, b) -> new Event(a.key(), b.time(), a.value() + b.value()),
            dev.statekit.stream.serde.Serdes.json(Event.class))
        .map(e -> e.key() + "@" + e.time() + "=" + e.value())
        .to(sink);
  }

  @ParameterizedTest
  @ValueSource(longs = {11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22})
  void twoReadersTwoStagesSurviveKillsAndParallelismChanges(long seed) throws Exception {
    Outputs expected = new Outputs();
    twoStages(input(seed), 2, 3, expected.results, expected.dead, expected.late)
        .run(
            options(
                "clean-" + UUID.randomUUID(),
                new InMemoryStateTable(),
                CheckpointStore.inMemory(),
                1000,
                2));
    assertEquals(0, expected.late.values().size());

    Outputs actual =
        killedAndRestored(
            seed,
            (source, random, out) ->
                twoStages(
                    source,
                    1 + random.nextInt(3),
                    1 + random.nextInt(3),
                    crashing(out.results),
                    crashing(out.dead),
                    crashing(out.late)),
            2);

    actual.assertSame(expected, seed);
  }

  /** The three outputs of a run. */
  static final class Outputs {
    final CollectingSink<String> results = Sinks.collecting();
    final CollectingSink<DeadLetter<Event>> dead = Sinks.collecting();
    final CollectingSink<Event> late = Sinks.collecting();

    void assertSame(Outputs expected, long seed) {
      assertEquals(
          sorted(expected.results.values()), sorted(results.values()), "results seed " + seed);
      assertEquals(sorted(expected.late.values()), sorted(late.values()), "late seed " + seed);
      assertEquals(
          sorted(expected.dead.values().stream().map(d -> d.record().value()).toList()),
          sorted(dead.values().stream().map(d -> d.record().value()).toList()),
          "dead seed " + seed);
    }
  }

  /** A run of the pipeline under test, its parallelism drawn from {@code random}. */
  interface KilledRun {
    Pipeline pipeline(Source<Event> source, Random random, Outputs out);
  }

  /**
   * Runs {@code run} until it finishes, killing up to ten attempts at random points (faults in the
   * source, state table and checkpoint store, a map step, a sink writer), each restore drawing its
   * parallelism and state cache anew.
   */
  static Outputs killedAndRestored(long seed, KilledRun run, int readers) throws Exception {
    String name = "killed-" + UUID.randomUUID();
    Faults faults = new Faults(seed);
    Random random = new Random(seed * 31);
    StateTable table = faults.table(new InMemoryStateTable());
    CheckpointStore store = faults.store(CheckpointStore.inMemory());
    Outputs out = new Outputs();
    Source<Event> source = faults.source(input(seed));
    for (int attempt = 0; ; attempt++) {
      opCountdown.set(-1);
      sinkCountdown.set(-1);
      faults.disarm();
      if (attempt < 10) {
        int kind = random.nextInt(3);
        if (kind == 0) {
          faults.arm();
        } else if (kind == 1) {
          opCountdown.set(1 + random.nextInt(2500));
        } else {
          sinkCountdown.set(1 + random.nextInt(12));
        }
      }
      try {
        run.pipeline(source, random, out)
            .run(options(name, table, store, 1 + random.nextInt(20), readers));
        return out;
      } catch (PipelineFailedException e) {
        Throwable cause = e.getCause();
        if (!(cause instanceof Faults.Crash) && cause.getCause() instanceof Faults.Crash) {
          cause = cause.getCause();
        }
        assertInstanceOf(Faults.Crash.class, cause, () -> "unexpected failure: " + e);
      }
    }
  }

  static <T> Sink<T> crashing(Sink<T> inner) {
    return new Sink<>() {
      @Override
      public SinkWriter<T> open(int worker, int workers) throws Exception {
        SinkWriter<T> w = inner.open(worker, workers);
        return new SinkWriter<>() {
          @Override
          public void write(Record<T> record) throws Exception {
            w.write(record);
          }

          @Override
          public void checkpoint(long id) throws Exception {
            if (sinkCountdown.get() > 0 && sinkCountdown.decrementAndGet() == 0) {
              throw new Faults.Crash("sink checkpoint");
            }
            w.checkpoint(id);
          }

          @Override
          public void checkpointComplete(long id) throws Exception {
            w.checkpointComplete(id);
            if (sinkCountdown.get() > 0 && sinkCountdown.decrementAndGet() == 0) {
              throw new Faults.Crash("sink complete");
            }
          }
        };
      }

      @Override
      public void recover(long id) throws Exception {
        inner.recover(id);
      }
    };
  }

  static RunOptions options(
      String name, StateTable table, CheckpointStore store, int maxKeys, int readers) {
    return RunOptions.named(name)
        .parallelism(readers)
        .stateBackend(StateBackend.over(table, maxKeys))
        .checkpointStore(store)
        .checkpointInterval(Duration.ofMillis(2))
        .build();
  }

  static List<String> sorted(List<?> values) {
    return values.stream().map(String::valueOf).sorted().toList();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void sessionsDeadLettersAndLateRecordsSurviveKillsAndParallelismChanges(long seed)
      throws Exception {
    Outputs expected = new Outputs();
    pipeline(input(seed), 2, expected.results, expected.dead, expected.late)
        .run(
            options(
                "clean-" + UUID.randomUUID(),
                new InMemoryStateTable(),
                CheckpointStore.inMemory(),
                1000,
                1));
    assertTrue(expected.late.values().size() > 10, "late " + expected.late.values().size());

    Outputs actual =
        killedAndRestored(
            seed,
            (source, random, out) ->
                pipeline(
                    source,
                    1 + random.nextInt(3),
                    crashing(out.results),
                    crashing(out.dead),
                    crashing(out.late)),
            1);

    actual.assertSame(expected, seed);
  }
}
