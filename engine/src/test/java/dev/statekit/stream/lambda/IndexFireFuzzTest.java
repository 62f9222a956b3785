package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
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

/**
 * Random sequential schedules over several shards, one shard slow so that hundreds of timer items
 * come due at once (more than one query reads): every window result exactly once, with the count an
 * in-order run gives. Keys are partitioned by shard and each shard's event time rises, so no record
 * is late.
 */
class IndexFireFuzzTest {
  enum Kind {
    TUMBLING,
    SLIDING,
    SESSION
  }

  static Windows windows(Kind kind, long base) {
    return switch (kind) {
      case TUMBLING -> Windows.tumbling(Duration.ofMillis(base));
      case SLIDING -> Windows.sliding(Duration.ofMillis(3 * base), Duration.ofMillis(base));
      case SESSION -> Windows.session(Duration.ofMillis(base / 2 + 1)); // odd gap, even times
    };
  }

  static Pipeline pipeline(Kind kind, long base, EgressSink sink) {
    return Pipeline.from(BatchSource.records())
        .map(b -> new String(b, StandardCharsets.UTF_8).split("@"))
        .withWatermarks(
            WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ZERO)
                .withTimestamps(parts -> Long.parseLong(parts[1]))
                .withIdleTimeout(Duration.ofHours(1)))
        .keyBy(parts -> parts[0])
        .window(windows(kind, base))
        .aggregate(
            AggregateFunction.<String[]>count(),
            Serdes.longs(),
            (String key, TimeWindow w, Long n) -> key + "@" + w.start() + "-" + w.end() + "=" + n)
        .to(EgressOutput.to(sink, TypeName.of("test", "fuzz"), Types.stringType()));
  }

  static Set<String> expected(Kind kind, long base, Map<String, List<Long>> byKey) {
    Set<String> out = new TreeSet<>();
    Windows w = windows(kind, base);
    byKey.forEach(
        (key, times) -> {
          if (kind == Kind.SESSION) {
            List<Long> sorted = new ArrayList<>(times);
            sorted.sort(null);
            long start = -1;
            long end = -1;
            long n = 0;
            for (long t : sorted) {
              if (n > 0 && t <= end) {
                end = Math.max(end, t + w.size());
                n++;
              } else {
                if (n > 0) {
                  out.add(key + "@" + start + "-" + end + "=" + n);
                }
                start = t;
                end = t + w.size();
                n = 1;
              }
            }
            if (n > 0) {
              out.add(key + "@" + start + "-" + end + "=" + n);
            }
          } else {
            Map<Long, Long> counts = new TreeMap<>();
            for (long t : times) {
              for (long s = t - Math.floorMod(t, w.slide()); s > t - w.size(); s -= w.slide()) {
                counts.merge(s, 1L, Long::sum);
              }
            }
            counts.forEach((s, n) -> out.add(key + "@" + s + "-" + (s + w.size()) + "=" + n));
          }
        });
    return out;
  }

  /** Runs one schedule; returns null if it held, else what broke. */
  static final java.util.concurrent.atomic.AtomicLong FULL =
      new java.util.concurrent.atomic.AtomicLong();

  static final java.util.concurrent.atomic.AtomicLong ALL =
      new java.util.concurrent.atomic.AtomicLong();

  static BatchStore counting(BatchStore inner) {
    return (BatchStore)
        java.lang.reflect.Proxy.newProxyInstance(
            BatchStore.class.getClassLoader(),
            new Class<?>[] {BatchStore.class},
            (proxy, method, args) -> {
              Object result;
              try {
                result = method.invoke(inner, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
              if (method.getName().equals("timersDueBy")) {
                int limit = (Integer) args[2];
                if (limit == Integer.MAX_VALUE) {
                  ALL.incrementAndGet();
                } else if (((List<?>) result).size() >= limit) {
                  FULL.incrementAndGet();
                }
              }
              return result;
            });
  }

  static String run(Kind kind, long seed, boolean flaky) {
    return run(kind, seed, flaky, false);
  }

  static String run(Kind kind, long seed, boolean flaky, boolean crashes) {
    Random random = new Random(seed);
    ManualClock clock = new ManualClock(1_700_000_000_000L);
    BatchStore inner = new InMemoryBatchStore(clock);
    BatchStore store = counting(inner);
    java.util.concurrent.atomic.AtomicReference<BatchFaultHook.Step> crashAt =
        new java.util.concurrent.atomic.AtomicReference<>();
    Map<String, Integer> deliveries = new TreeMap<>();
    Map<String, Set<String>> values = new TreeMap<>();
    EgressSink table =
        (List<EgressRecord> records) ->
            records.forEach(
                r -> {
                  deliveries.merge(r.id(), 1, Integer::sum);
                  values.computeIfAbsent(r.id(), i -> new TreeSet<>()).add(r.text().orElseThrow());
                });
    FlakySink sink = new FlakySink(table);
    String name = "fuzz-" + seed;
    long base = 100L * (1 + random.nextInt(30));
    BatchPipeline pipeline =
        BatchPipeline.builder(name, pipeline(kind, base, sink))
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .faultHook(
                (step, detail) -> {
                  if (step == crashAt.get()) {
                    crashAt.set(null);
                    throw new IllegalStateException("crash at " + step);
                  }
                })
            .build();
    int shards = 2 + random.nextInt(2);
    List<String> splits = new ArrayList<>();
    for (int s = 0; s < shards; s++) {
      splits.add("orders/shardId-" + s);
    }
    pipeline.registerSplits(splits);
    int keys = 100 + random.nextInt(400);
    long[] time = new long[shards];
    long[] seq = new long[shards];
    for (int s = 0; s < shards; s++) {
      time[s] = 2 * random.nextInt(50);
      seq[s] = 1000;
    }
    Map<String, List<Long>> byKey = new TreeMap<>();
    int slow = random.nextInt(shards);
    double slowP = random.nextDouble() * 0.1;
    int steps = 200 + random.nextInt(600);
    int maxBatch = 1 + random.nextInt(4);
    int step = 1 + random.nextInt(60);
    boolean jumps = random.nextBoolean();
    List<String> trace = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      clock.advance(Duration.ofMillis(500));
      if (random.nextInt(30) == 0) {
        if (flaky && random.nextInt(3) == 0) {
          sink.failNext(1);
        }
        for (int a = 0; a < 5; a++) {
          try {
            pipeline.tick();
            break;
          } catch (RuntimeException e) {
            // the next tick
          }
        }
        sink.failNext(0);
        continue;
      }
      int s = random.nextInt(shards);
      if (s == slow && random.nextDouble() > slowP) {
        s = (s + 1) % shards;
      }
      if (s == slow && jumps) {
        long least = Long.MAX_VALUE;
        for (int o = 0; o < shards; o++) {
          if (o != slow) {
            least = Math.min(least, time[o]);
          }
        }
        long to = least - 2L * random.nextInt((int) base + 1);
        time[s] = Math.max(time[s], to - Math.floorMod(to, 2));
      }
      SourceBatch.Builder batch = SourceBatch.ordered(splits.get(s));
      int n = 1 + random.nextInt(maxBatch);
      for (int r = 0; r < n; r++) {
        time[s] += 2 * (1 + random.nextInt(step));
        int k = random.nextInt(keys / shards) * shards + s;
        String key = "k" + k;
        byKey.computeIfAbsent(key, x -> new ArrayList<>()).add(time[s]);
        batch.add(
            Long.toString(seq[s]++), 0, (key + "@" + time[s]).getBytes(StandardCharsets.UTF_8));
      }
      SourceBatch built = batch.build();
      if (flaky && random.nextInt(8) == 0) {
        sink.failNext(1);
      }
      if (crashes && random.nextInt(6) == 0) {
        BatchFaultHook.Step[] points = {
          BatchFaultHook.Step.FLUSHED,
          BatchFaultHook.Step.DELIVERY,
          BatchFaultHook.Step.DELIVERED,
          BatchFaultHook.Step.CHECKPOINTED
        };
        crashAt.set(points[random.nextInt(points.length)]);
      }
      boolean done = false;
      for (int a = 0; a < 5 && !done; a++) {
        try {
          pipeline.process(built);
          done = true;
        } catch (RuntimeException e) {
          // Lambda retries the batch
        }
      }
      sink.failNext(0);
      crashAt.set(null);
      if (!done) {
        return "batch never went through";
      }
    }
    long end = 0;
    for (long t : time) {
      end = Math.max(end, t);
    }
    end += 100_000;
    for (int s = 0; s < shards; s++) {
      SourceBatch last =
          SourceBatch.ordered(splits.get(s))
              .add(Long.toString(seq[s]++), 0, ("zz-end@" + end).getBytes(StandardCharsets.UTF_8))
              .build();
      pipeline.process(last);
    }
    for (int t = 0; t < Integer.getInteger("fuzz.ticks", 60); t++) {
      clock.advance(Duration.ofSeconds(10));
      pipeline.tick();
    }
    Set<String> fired = new TreeSet<>();
    List<String> problems = new ArrayList<>();
    values.forEach(
        (id, texts) -> {
          if (texts.size() > 1) {
            problems.add("two values for " + id + ": " + texts);
          }
          texts.stream().filter(t -> !t.startsWith("zz-end")).forEach(fired::add);
        });
    deliveries.forEach(
        (id, times) -> {
          if (times != 1 && !crashes) {
            problems.add(id + " delivered " + times + " times");
          }
        });
    Set<String> want = expected(kind, base, byKey);
    Set<String> missing = new TreeSet<>(want);
    missing.removeAll(fired);
    Set<String> extra = new TreeSet<>(fired);
    extra.removeAll(want);
    if (!missing.isEmpty()) {
      problems.add(
          "missing "
              + missing.size()
              + " (timer items left "
              + ((InMemoryBatchStore) inner).timerItems(name)
              + ", firedThrough "
              + pipeline.splits().stream().mapToLong(SplitState::firedThrough).max().getAsLong()
              + "): "
              + head(missing));
    }
    if (!extra.isEmpty()) {
      problems.add("extra " + extra.size() + ": " + head(extra));
    }
    return problems.isEmpty()
        ? null
        : kind
            + " seed "
            + seed
            + " flaky="
            + flaky
            + " crashes="
            + crashes
            + " shards="
            + shards
            + " keys="
            + keys
            + " steps="
            + steps
            + ": "
            + head(problems);
  }

  static String head(java.util.Collection<String> all) {
    return all.stream().limit(6).toList() + (all.size() > 6 ? " ..." : "");
  }

  static void sweep(Kind kind, boolean flaky) {
    sweep(kind, flaky, false);
  }

  static void sweep(Kind kind, boolean flaky, boolean crashes) {
    int seeds = Integer.getInteger("fuzz.seeds", 30);
    long first = Long.getLong("fuzz.first", 1);
    List<String> failures = new ArrayList<>();
    for (long seed = first; seed < first + seeds; seed++) {
      String problem = run(kind, seed, flaky, crashes);
      if (problem != null) {
        failures.add(problem);
      }
    }
    long full = FULL.getAndSet(0);
    System.out.println(
        kind
            + " flaky="
            + flaky
            + " crashes="
            + crashes
            + ": full pages "
            + full
            + ", reads of every item of an end "
            + ALL.getAndSet(0));
    assertEquals(List.of(), failures, failures.size() + " of " + seeds + " schedules broke");
    org.junit.jupiter.api.Assertions.assertTrue(
        full > 0, "no schedule read a full page of timer items: the test no longer reaches it");
  }

  @org.junit.jupiter.api.Test
  void tumbling() {
    sweep(Kind.TUMBLING, false);
  }

  @org.junit.jupiter.api.Test
  void sliding() {
    sweep(Kind.SLIDING, false);
  }

  @org.junit.jupiter.api.Test
  void sessions() {
    sweep(Kind.SESSION, false);
  }

  @org.junit.jupiter.api.Test
  void tumblingFlaky() {
    sweep(Kind.TUMBLING, true);
  }

  @org.junit.jupiter.api.Test
  void slidingFlaky() {
    sweep(Kind.SLIDING, true);
  }

  @org.junit.jupiter.api.Test
  void sessionsFlaky() {
    sweep(Kind.SESSION, true);
  }

  @org.junit.jupiter.api.Test
  void tumblingCrashes() {
    sweep(Kind.TUMBLING, true, true);
  }

  @org.junit.jupiter.api.Test
  void slidingCrashes() {
    sweep(Kind.SLIDING, true, true);
  }

  @org.junit.jupiter.api.Test
  void sessionsCrashes() {
    sweep(Kind.SESSION, true, true);
  }

  /**
   * Shards' batches at once (one thread per shard) and a ticking thread; values and completeness.
   * Invocations that overlap may each deliver a window neither has recorded as fired, under the
   * same id (results are at least once with stable ids, exactly once at a sink that writes by id):
   * such repeats are counted and printed, a second value for an id or a missing window fails.
   */
  static String concurrent(Kind kind, long seed) throws Exception {
    Random random = new Random(seed);
    ManualClock clock = new ManualClock(1_700_000_000_000L);
    BatchStore store = new InMemoryBatchStore(clock);
    Map<String, Integer> deliveries = new java.util.concurrent.ConcurrentHashMap<>();
    Map<String, Set<String>> values = new java.util.concurrent.ConcurrentHashMap<>();
    Map<String, List<String>> who = new java.util.concurrent.ConcurrentHashMap<>();
    EgressSink table =
        (List<EgressRecord> records) ->
            records.forEach(
                r -> {
                  deliveries.merge(r.id(), 1, Integer::sum);
                  who.computeIfAbsent(
                          r.id(), i -> java.util.Collections.synchronizedList(new ArrayList<>()))
                      .add(
                          Thread.currentThread().getName().startsWith("tick")
                              ? "t"
                              : Thread.currentThread().getName().equals("main") ? "m" : "b");
                  values
                      .computeIfAbsent(
                          r.id(), i -> java.util.concurrent.ConcurrentHashMap.newKeySet())
                      .add(r.text().orElseThrow());
                });
    long base = 100L * (1 + random.nextInt(30));
    String name = "conc-" + seed;
    BatchPipeline pipeline =
        BatchPipeline.builder(name, pipeline(kind, base, table))
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .build();
    int shards = 2 + random.nextInt(3);
    List<String> splits = new ArrayList<>();
    for (int s = 0; s < shards; s++) {
      splits.add("orders/shardId-" + s);
    }
    pipeline.registerSplits(splits);
    int keys = 100 + random.nextInt(400);
    int step = 1 + random.nextInt(60);
    int maxBatch = 1 + random.nextInt(4);
    Map<String, List<Long>> byKey = new java.util.concurrent.ConcurrentHashMap<>();
    List<List<SourceBatch>> plans = new ArrayList<>();
    long endAll = 0;
    for (int s = 0; s < shards; s++) {
      Random r = new Random(seed * 31 + s);
      List<SourceBatch> plan = new ArrayList<>();
      long time = 2 * r.nextInt(50);
      long seq = 1000;
      int batches = 50 + r.nextInt(300);
      for (int b = 0; b < batches; b++) {
        SourceBatch.Builder batch = SourceBatch.ordered(splits.get(s));
        int n = 1 + r.nextInt(maxBatch);
        for (int i = 0; i < n; i++) {
          time += 2 * (1 + r.nextInt(step));
          String key = "k" + (r.nextInt(keys / shards) * shards + s);
          byKey
              .computeIfAbsent(key, x -> java.util.Collections.synchronizedList(new ArrayList<>()))
              .add(time);
          batch.add(Long.toString(seq++), 0, (key + "@" + time).getBytes(StandardCharsets.UTF_8));
        }
        plan.add(batch.build());
      }
      endAll = Math.max(endAll, time);
      plans.add(plan);
    }
    long end = endAll + 100_000;
    for (int s = 0; s < shards; s++) {
      plans
          .get(s)
          .add(
              SourceBatch.ordered(splits.get(s))
                  .add("9" + "0".repeat(10), 0, ("zz-end@" + end).getBytes(StandardCharsets.UTF_8))
                  .build());
    }
    java.util.concurrent.atomic.AtomicBoolean running =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int s = 0; s < shards; s++) {
      List<SourceBatch> plan = plans.get(s);
      Thread t =
          new Thread(
              () -> {
                for (SourceBatch b : plan) {
                  boolean done = false;
                  for (int a = 0; a < 20 && !done; a++) {
                    try {
                      pipeline.process(b);
                      done = true;
                    } catch (RuntimeException e) {
                      if (a == 19) {
                        errors.add(e);
                      }
                    }
                  }
                  if (!done) {
                    return;
                  }
                }
              });
      threads.add(t);
    }
    Thread ticker =
        new Thread(
            null,
            () -> {
              while (running.get()) {
                try {
                  pipeline.tick();
                  Thread.sleep(1);
                } catch (Exception e) {
                  // next tick
                }
              }
            },
            "ticker");
    threads.forEach(Thread::start);
    if (!Boolean.getBoolean("fuzz.noTicker")) {
      ticker.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    running.set(false);
    ticker.join();
    for (int t = 0; t < 100; t++) {
      clock.advance(Duration.ofSeconds(10));
      pipeline.tick();
    }
    List<String> problems = new ArrayList<>();
    errors.forEach(e -> problems.add("error " + e));
    Set<String> fired = new TreeSet<>();
    int[] dup = {0};
    values.forEach(
        (id, texts) -> {
          if (texts.size() > 1) {
            problems.add("two values for " + id + ": " + texts);
          }
          texts.stream().filter(t -> !t.startsWith("zz-end")).forEach(fired::add);
        });
    deliveries.forEach((id, n) -> dup[0] += n > 1 ? 1 : 0);
    who.forEach(
        (id, l) -> {
          if (l.size() > 1) {
            List<String> c = new ArrayList<>(l);
            c.sort(null);
            KINDS.merge(String.join("", c), 1, Integer::sum);
          }
        });
    Set<String> want = expected(kind, base, byKey);
    Set<String> missing = new TreeSet<>(want);
    missing.removeAll(fired);
    Set<String> extra = new TreeSet<>(fired);
    extra.removeAll(want);
    if (!missing.isEmpty()) {
      problems.add("missing " + missing.size() + ": " + head(missing));
    }
    if (!extra.isEmpty()) {
      problems.add("extra " + extra.size() + ": " + head(extra));
    }
    DUPS.addAndGet(dup[0]);
    return problems.isEmpty()
        ? null
        : kind + " seed " + seed + " shards=" + shards + ": " + head(problems);
  }

  static final Map<String, Integer> KINDS = new java.util.concurrent.ConcurrentHashMap<>();

  static final java.util.concurrent.atomic.AtomicLong DUPS =
      new java.util.concurrent.atomic.AtomicLong();

  @org.junit.jupiter.api.Test
  void concurrentShards() throws Exception {
    int seeds = Integer.getInteger("fuzz.seeds", 30);
    long first = Long.getLong("fuzz.first", 1);
    List<String> failures = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      for (long seed = first; seed < first + seeds; seed++) {
        String problem = concurrent(kind, seed);
        if (problem != null) {
          failures.add(problem);
        }
      }
    }
    System.out.println("concurrent: ids delivered more than once " + DUPS.get() + " " + KINDS);
    assertEquals(List.of(), failures, failures.size() + " schedules broke");
  }
}
