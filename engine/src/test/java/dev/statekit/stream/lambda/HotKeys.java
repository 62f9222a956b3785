package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** What the hot-key tests share: one key counting every record, and their schedules' helpers. */
final class HotKeys {
  private HotKeys() {}

  /** A running count of every record, all of one key ("hot"), its counts to {@code sink}. */
  static BatchPipeline counts(
      BatchStore store, ManualClock clock, EgressSink sink, BatchFaultHook hook) {
    return counts(store, clock, sink, hook, TypeName.of("test", "counts"));
  }

  /** {@link #counts} delivered by egress {@code egress}. */
  static BatchPipeline counts(
      BatchStore store, ManualClock clock, EgressSink sink, BatchFaultHook hook, TypeName egress) {
    Pipeline counts =
        Pipeline.from(BatchSource.records())
            .map(bytes -> "1")
            .keyBy(one -> "hot")
            .reduce((a, b) -> Long.toString(Long.parseLong(a) + Long.parseLong(b)), Serdes.string())
            .to(EgressOutput.to(sink, egress, Types.stringType()));
    return BatchPipeline.builder("counts", counts)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .faultHook(hook)
        .build();
  }

  /**
   * The counts {@link #counts} delivered, one value per output id (an id delivered again carries
   * the same count), sorted: each record counted once is "1", "2", ... up to the records applied.
   */
  static List<String> countsOncePerId(List<EgressRecord> delivered) {
    Map<String, String> counts = new TreeMap<>();
    for (EgressRecord record : delivered) {
      String count = Types.stringType().deserialize(record.value());
      String before = counts.put(record.id(), count);
      assertTrue(before == null || before.equals(count), "one output per id: " + record.id());
    }
    return counts.values().stream().sorted().toList();
  }

  /**
   * Messages with body "id:k1+k2" (one keyed record per key), counted per key: each output is
   * "key|count|id of the message applied|pad", padded with {@code pad} characters so that a few
   * fill a key's share of its item. The outputs go to {@code outputs}.
   */
  static BatchPipeline paddedPairCounts(
      String name,
      BatchStore store,
      ManualClock clock,
      List<EgressRecord> outputs,
      int pad,
      BatchFaultHook hook) {
    EgressSink sink = outputs::addAll;
    String padding = "x".repeat(pad);
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .<String>flatMap(
                (text, out) -> {
                  String id = text.substring(0, text.indexOf(':'));
                  for (String key : text.substring(text.indexOf(':') + 1).split("\\+")) {
                    out.collect(key + "|1|" + id + "|" + padding);
                  }
                })
            .keyBy(v -> v.substring(0, v.indexOf('|')))
            .reduce(
                (a, b) -> {
                  String[] x = a.split("\\|");
                  String[] y = b.split("\\|");
                  return x[0] + "|" + (Long.parseLong(x[1]) + 1) + "|" + y[2] + "|" + padding;
                },
                Serdes.string())
            .to(EgressOutput.to(sink, TypeName.of("test", "counts"), Types.stringType()));
    return BatchPipeline.builder(name, plan)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .faultHook(hook)
        .build();
  }

  /**
   * What {@link #paddedPairCounts}' outputs say each key applied: per key, count to message id.
   * Fails if an output id came with two values or one count of a key with two messages.
   *
   * @param schedule what happened, for the failure message
   */
  static Map<String, TreeMap<Long, String>> appliedPerKey(
      List<EgressRecord> outputs, Object schedule) {
    Map<String, String> byId = new LinkedHashMap<>();
    Map<String, TreeMap<Long, String>> applied = new TreeMap<>();
    for (EgressRecord record : outputs) {
      String text = record.textOrBase64();
      String previous = byId.putIfAbsent(record.id(), text);
      assertTrue(
          previous == null || previous.equals(text),
          "output " + record.id() + " with two values; " + schedule);
      String[] parts = text.split("\\|");
      String was =
          applied
              .computeIfAbsent(parts[0], k -> new TreeMap<>())
              .put(Long.parseLong(parts[1]), parts[2]);
      assertTrue(
          was == null || was.equals(parts[2]),
          "key " + parts[0] + " count " + parts[1] + " for " + was + " and " + parts[2]);
    }
    return applied;
  }

  /** A sink down (the batch failing at delivery) for the first {@code attempts} attempts. */
  static BatchFaultHook deliveriesFail(int attempts) {
    int[] down = {attempts};
    return (step, detail) -> {
      if (step == BatchFaultHook.Step.DELIVERY && down[0] > 0) {
        down[0]--;
        throw new IllegalStateException("sink down");
      }
    };
  }

  /** A batch of queue {@code queue}: messages {@code ids}, each its id as body. */
  static SourceBatch queue(String queue, long at, String... ids) {
    SourceBatch.Builder batch = SourceBatch.unordered(queue);
    for (String id : ids) {
      batch.add(id, at, id.getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  /** A hook that, at {@code step}, counts {@code reached} down and waits for {@code go}. */
  static BatchFaultHook pauseAt(
      BatchFaultHook.Step step, CountDownLatch reached, CountDownLatch go) {
    return (at, detail) -> {
      if (at == step) {
        reached.countDown();
        await(go);
      }
    };
  }

  static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(20, TimeUnit.SECONDS), "schedule did not reach its step");
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  /** What a batch came to, for a failure message: "ok", its failed records, or its exception. */
  static Object run(BatchPipeline pipeline, SourceBatch batch) {
    try {
      BatchResult result = pipeline.process(batch);
      return result.succeeded() ? "ok" : result.failedOffsets() + " " + result.failure();
    } catch (RuntimeException e) {
      return e;
    }
  }
}
