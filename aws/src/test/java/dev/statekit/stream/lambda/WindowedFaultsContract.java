package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.FailurePolicy;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.lambda.BatchFaultHook.Step;
import dev.statekit.stream.lambda.ShardDriver.ShardRecord;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A windowed count over four shards whose keys overlap, each shard played by its own thread as
 * Lambda would (several instances, concurrently), with out-of-order timestamps, repeated records,
 * batches delivered again, partial failures (in the stateless and the keyed stage) and crashes at
 * every step of a batch, the middle of the flush included. Idle shards are then moved on by the
 * tick. The results equal a count without faults, each once in the results table.
 */
abstract class WindowedFaultsContract extends PipelineContract {
  private static final int SHARDS = 4;
  private static final long WINDOW_MS = 100;
  private static final long BOUND_MS = 40;
  private static final String SEQUENCE_BASE = "49590338271490256608559692538361571095921575989136";

  private final String name = "faults-" + Long.toHexString(System.nanoTime());
  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final Set<String> failOnceInSource = ConcurrentHashMap.newKeySet();
  private final Set<String> failOnceInWindow = ConcurrentHashMap.newKeySet();
  private final ThreadLocal<String> armed = new ThreadLocal<>();

  /** Records per shard (the DynamoDB run keeps it shorter). */
  abstract int recordsPerShard();

  private Pipeline pipeline() {
    AggregateFunction<String[], Long, Long> count =
        new AggregateFunction<>() {
          @Override
          public Long createAccumulator() {
            return 0L;
          }

          @Override
          public Long add(String[] value, Long acc) {
            if (failOnceInWindow.remove(value[2])) {
              throw new IllegalStateException("a passing failure in the window's function");
            }
            return acc + 1;
          }

          @Override
          public Long result(Long acc) {
            return acc;
          }

          @Override
          public Long merge(Long a, Long b) {
            return a + b;
          }
        };
    return Pipeline.from(BatchSource.records())
        .map(bytes -> new String(bytes, StandardCharsets.UTF_8).split(","))
        .<String[]>process(
            "flaky",
            (record, out) -> {
              if (failOnceInSource.remove(record.value()[2])) {
                throw new IllegalStateException("a passing failure before the keyBy");
              }
              out.collect(record.value());
            },
            FailurePolicy.fail())
        .withWatermarks(
            WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ofMillis(BOUND_MS))
                .withTimestamps(parts -> Long.parseLong(parts[1]))
                .withIdleTimeout(Duration.ofMinutes(1)))
        .keyBy(parts -> parts[0])
        .window(Windows.tumbling(Duration.ofMillis(WINDOW_MS)))
        .aggregate(count, Serdes.longs(), WindowedFaultsContract::text)
        .to(EgressOutput.to(results(), TypeName.of("test", "counts"), Types.stringType()));
  }

  private static String split(int shard) {
    return "orders/shardId-00000000000" + shard;
  }

  private static String text(String key, TimeWindow window, Long n) {
    return key + "@" + window.start() + "=" + n;
  }

  private BatchPipeline instance() {
    return BatchPipeline.builder(name, pipeline())
        .store(store())
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .faultHook(
            (step, detail) -> {
              String at = armed.get();
              if (at != null && at.equals(step.name())) {
                armed.remove();
                throw new ShardDriver.Crash(step + " " + detail);
              }
            })
        .build();
  }

  private void arm(Random random) {
    armed.remove();
    if (random.nextInt(6) == 0) {
      Step[] steps = Step.values();
      armed.set(steps[random.nextInt(steps.length)].name());
    }
  }

  @Test
  void resultsEqualACountWithoutFaultsEachOnce() throws Exception {
    Random random = new Random(11);
    List<List<ShardRecord>> shards = new ArrayList<>();
    Map<String, Long> reference = new TreeMap<>();
    int perShard = recordsPerShard();
    for (int s = 0; s < SHARDS; s++) {
      List<ShardRecord> shard = new ArrayList<>();
      for (int i = 0; i < perShard; i++) {
        String key = "k" + random.nextInt(12);
        // Out of order within the bound: no record is late.
        long time = i * 3L + random.nextInt((int) BOUND_MS);
        String id = s + ":" + i;
        if (random.nextInt(80) == 0) {
          failOnceInSource.add(id);
        } else if (random.nextInt(80) == 0) {
          failOnceInWindow.add(id);
        }
        String sequence = SEQUENCE_BASE + String.format("%010d", i * 7L + s);
        shard.add(
            new ShardRecord(
                sequence, (key + "," + time + "," + id).getBytes(StandardCharsets.UTF_8)));
        long start = time - Math.floorMod(time, WINDOW_MS);
        reference.merge(key + "@" + start, 1L, Long::sum);
      }
      shards.add(shard);
    }

    List<String> splits = new ArrayList<>();
    for (int s = 0; s < SHARDS; s++) {
      splits.add(split(s));
    }
    assertEquals(splits, instance().registerSplits(splits), "as the handler does from ListShards");
    ExecutorService threads = Executors.newFixedThreadPool(SHARDS);
    List<ShardDriver> drivers = new ArrayList<>();
    List<Future<?>> running = new ArrayList<>();
    for (int s = 0; s < SHARDS; s++) {
      ShardDriver driver =
          new ShardDriver(
              "orders/shardId-00000000000" + s,
              shards.get(s),
              this::instance,
              this::arm,
              100 + s,
              60);
      drivers.add(driver);
      running.add(threads.submit(driver::run));
    }
    for (Future<?> run : running) {
      run.get();
    }
    threads.shutdown();

    // Every shard is idle now: the tick moves their watermarks on, then fires what is left.
    BatchPipeline ticker = instance();
    clock.advance(Duration.ofMinutes(2));
    TickResult idle = ticker.tick();
    assertEquals(SHARDS, idle.idleSplits().size(), "every shard is idle: " + idle);
    clock.advance(Duration.ofMinutes(2));
    ticker.tick();

    Set<String> expected = new TreeSet<>();
    reference.forEach((window, n) -> expected.add(window + "=" + n));
    Map<String, String> stored = stored();
    // Compared as "key@start=count" texts: a wrong count shows as one missing and one extra.
    Set<String> missing = new TreeSet<>(expected);
    missing.removeAll(stored.values());
    Set<String> extra = new TreeSet<>(stored.values());
    extra.removeAll(expected);
    assertEquals(Set.of(), missing, "results missing or wrong (extra: " + extra + ")");
    assertEquals(Set.of(), extra, "results that should not be");
    assertEquals(expected.size(), stored.size(), "one record per window");
    int crashes = drivers.stream().mapToInt(d -> d.crashed).sum();
    int partials = drivers.stream().mapToInt(d -> d.partial).sum();
    assertTrue(crashes >= 10, "crashes: " + crashes);
    assertTrue(partials > 5, "partial failures: " + partials);
    assertTrue(failOnceInSource.isEmpty() && failOnceInWindow.isEmpty(), "every failure came");
  }
}
