package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.serde.Serdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every kind of window against a brute-force reference, on out-of-order input with late data. */
class WindowsTest {
  private static final int POLL = 16;
  private static final long BOUND = 40;

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (long seed : new long[] {1, 2, 3}) {
      for (int parallelism : new int[] {1, 3}) {
        cases.add(
            Arguments.of("tumbling", Windows.tumbling(Duration.ofMillis(100)), seed, parallelism));
        cases.add(
            Arguments.of(
                "sliding",
                Windows.sliding(Duration.ofMillis(120), Duration.ofMillis(40)),
                seed,
                parallelism));
        cases.add(
            Arguments.of("session", Windows.session(Duration.ofMillis(25)), seed, parallelism));
      }
    }
    return cases.stream();
  }

  /** Times drift forward with jitter; some records jump far back and arrive late. */
  static List<Event> input(long seed) {
    Random random = new Random(seed);
    List<Event> events = new ArrayList<>();
    long now = 1_000;
    for (int i = 0; i < 3000; i++) {
      now += random.nextInt(4);
      long time = now - random.nextInt(60);
      if (random.nextInt(25) == 0) {
        time = now - 100 - random.nextInt(400);
      }
      events.add(new Event("k" + random.nextInt(7), time, random.nextInt(1000)));
    }
    return events;
  }

  @ParameterizedTest(name = "{0} seed={2} parallelism={3}")
  @MethodSource("cases")
  void aggregatesMatchTheReference(String kind, Windows windows, long seed, int parallelism)
      throws Exception {
    List<Event> input = input(seed);
    WindowReference expected = WindowReference.run(input, POLL, BOUND, windows);
    CollectingSink<String> results = Sinks.collecting();
    CollectingSink<Event> late = Sinks.collecting();
    PipelineResult run =
        Pipeline.from(Sources.fromRecords(input.stream().map(Record::of).toList(), POLL))
            .withWatermarks(
                WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(BOUND))
                    .withTimestamps(Event::time))
            .keyBy(Event::key, parallelism)
            .window(windows)
            .lateRecordsTo(late)
            .aggregate(
                new SumAndCount(),
                Serdes.auto(),
                (String key, TimeWindow w, long[] acc) ->
                    WindowReference.line(key, w.start(), w.end(), acc[0], acc[1]))
            .to(results)
            .run(RunOptions.named(kind).build());
    assertEquals(sorted(expected.results), sorted(results.values()));
    assertTrue(expected.late.size() > 10, "the input has late records: " + expected.late.size());
    assertEquals(expected.late.size(), run.lateRecords());
    assertEquals(byTime(expected.late), byTime(late.values()), "late output = dropped records");
  }

  @ParameterizedTest(name = "{0} seed={2} parallelism={3}")
  @MethodSource("cases")
  void processFunctionsSeeEachWindowWhole(String kind, Windows windows, long seed, int parallelism)
      throws Exception {
    List<Event> input = input(seed);
    WindowReference expected = WindowReference.run(input, POLL, BOUND, windows);
    CollectingSink<String> results = Sinks.collecting();
    Pipeline.from(
            Sources.fromRecords(input.stream().map(e -> Record.of(e, e.time())).toList(), POLL))
        .withWatermarks(WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(BOUND)))
        .keyBy(Event::key, parallelism)
        .window(windows)
        .process(
            (String key, TimeWindow w, List<Event> values, Collector<String> out) ->
                out.collect(
                    WindowReference.line(
                        key,
                        w.start(),
                        w.end(),
                        values.stream().mapToLong(Event::value).sum(),
                        values.size())),
            Serdes.json(Event.class))
        .to(results)
        .run(RunOptions.named(kind).build());
    assertEquals(sorted(expected.results), sorted(results.values()));
  }

  private static List<String> sorted(List<String> lines) {
    return lines.stream().sorted().toList();
  }

  private static List<Event> byTime(List<Event> events) {
    return events.stream()
        .sorted(
            Comparator.comparing(Event::key).thenComparing(Event::time).thenComparing(Event::value))
        .toList();
  }

  /** Sum and count of values. */
  static final class SumAndCount implements AggregateFunction<Event, long[], long[]> {
    @Override
    public long[] createAccumulator() {
      return new long[2];
    }

    @Override
    public long[] add(Event value, long[] acc) {
      return new long[] {acc[0] + value.value(), acc[1] + 1};
    }

    @Override
    public long[] result(long[] acc) {
      return acc;
    }

    @Override
    public long[] merge(long[] a, long[] b) {
      return new long[] {a[0] + b[0], a[1] + b[1]};
    }
  }
}
