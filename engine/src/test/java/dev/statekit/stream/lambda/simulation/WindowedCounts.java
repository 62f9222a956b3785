package dev.statekit.stream.lambda.simulation;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Clicks on a Kinesis stream ({@code key,eventTime}, out of order by up to 20 s, partitioned by
 * key), counted per key in windows of a minute, or sliding windows of three minutes every minute.
 * With windows of a minute one record in forty is late, minutes behind its shard: its window counts
 * it, or, if the window closed first, the late-records output has it, never both.
 */
final class WindowedCounts implements Workload {
  private static final long BOUND_MS = 30_000;
  private final boolean sliding;

  WindowedCounts(boolean sliding) {
    this.sliding = sliding;
  }

  @Override
  public String name() {
    return sliding ? "sliding counts on Kinesis" : "windowed counts on Kinesis";
  }

  @Override
  public Source source() {
    return Source.KINESIS;
  }

  private Windows windows() {
    return sliding
        ? Windows.sliding(Duration.ofMinutes(3), Duration.ofMinutes(1))
        : Windows.tumbling(Duration.ofMinutes(1));
  }

  @Override
  public Pipeline pipeline(EgressSink sink, Duration idleTimeout) {
    var windowed =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8))
            .withWatermarks(
                WatermarkStrategy.<String>boundedOutOfOrderness(Duration.ofMillis(BOUND_MS))
                    .withTimestamps(WindowedCounts::time)
                    .withIdleTimeout(idleTimeout))
            .keyBy(record -> record.substring(0, record.indexOf(',')))
            .window(windows());
    if (!sliding) {
      // A late record goes here whole: its window counts it or this output has it, never both.
      windowed =
          windowed.lateRecordsTo(
              EgressOutput.to(sink, TypeName.of("sim", "late"), Types.stringType()));
    }
    return windowed
        .aggregate(
            AggregateFunction.<String>count(),
            Serdes.longs(),
            (String key, TimeWindow w, Long n) -> key + "@" + w.start() + "=" + n)
        .to(EgressOutput.to(sink, TypeName.of("sim", "counts"), Types.stringType()));
  }

  private static long time(String record) {
    return Long.parseLong(record.substring(record.indexOf(',') + 1));
  }

  @Override
  public boolean explains(List<String> missing, List<String> extra, List<byte[]> late) {
    Map<String, Long> short_ = new TreeMap<>();
    for (String value : missing) {
      short_.merge(value.substring(0, value.indexOf('=')), count(value), Long::sum);
    }
    Map<String, Long> lateOut = new TreeMap<>();
    for (String value : extra) {
      if (!value.contains("=")) {
        // A late record on the late output: its window is short by it, exactly.
        windowsOf(new Input(0, "", value.getBytes(StandardCharsets.UTF_8)))
            .forEach(window -> lateOut.merge(window, 1L, Long::sum));
        continue;
      }
      String window = value.substring(0, value.indexOf('='));
      if (!short_.containsKey(window)) {
        return false; // a window that should not be, or counted too high
      }
      short_.merge(window, -count(value), Long::sum);
    }
    Map<String, Long> lateIn = new TreeMap<>();
    for (byte[] data : late) {
      Input in = new Input(0, "", data);
      for (String window : windowsOf(in)) {
        lateIn.merge(window, 1L, Long::sum);
      }
    }
    if (!lateOut.keySet().stream().allMatch(short_::containsKey)) {
      return false; // a late output whose window counted the record all the same
    }
    return short_.entrySet().stream()
        .allMatch(
            e -> {
              long gap = e.getValue() - lateOut.getOrDefault(e.getKey(), 0L);
              // Tumbling windows report every late record; sliding ones may drop one from a window
              // that fired, but only a record replayed after it did.
              return sliding
                  ? gap >= 0 && gap <= lateIn.getOrDefault(e.getKey(), 0L) && e.getValue() > 0
                  : gap == 0;
            });
  }

  private static long count(String value) {
    return Long.parseLong(value.substring(value.indexOf('=') + 1));
  }

  private List<String> windowsOf(Input in) {
    Windows windows = windows();
    String[] parts = new String(in.data(), StandardCharsets.UTF_8).split(",");
    long time = Long.parseLong(parts[1]);
    List<String> of = new ArrayList<>();
    for (long s = time - Math.floorMod(time, windows.slide());
        s > time - windows.size();
        s -= windows.slide()) {
      of.add(parts[0] + "@" + s);
    }
    return of;
  }

  @Override
  public List<Input> input(Random random, long start) {
    List<Input> input = new ArrayList<>();
    int keys = 2 + random.nextInt(15);
    int records = 50 + random.nextInt(300);
    long at = start;
    for (int i = 0; i < records; i++) {
      at += random.nextInt(20_000);
      String key = "k" + random.nextInt(keys);
      long time = at - random.nextInt(20_000);
      if (!sliding && random.nextInt(40) == 0) {
        time = at - 180_000 - random.nextInt(420_000); // late: minutes behind its shard
      }
      input.add(new Input(at, key, (key + "," + time).getBytes(StandardCharsets.UTF_8)));
    }
    return input;
  }

  @Override
  public List<String> expected(List<Input> input) {
    Map<String, Long> counts = new TreeMap<>();
    for (Input in : input) {
      windowsOf(in).forEach(window -> counts.merge(window, 1L, Long::sum));
    }
    List<String> expected = new ArrayList<>();
    counts.forEach((window, n) -> expected.add(window + "=" + n));
    return expected;
  }
}
