package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Collector;
import dev.statekit.stream.KeyedContext;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.Record;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Queue batches in which messages fail in the keyed function (a bad deploy, a poison producer). A
 * failed message goes back to the queue and the batch's other messages are applied once each, from
 * the stored state without the failed ones. The keyed pass used to start over after each failure,
 * running the function about F times over the messages before the F-th failure: 2,000 messages of
 * 1,000 keys, every key's second one failing, ran it about 500,000 times, and 10,000 messages past
 * Lambda's 15 minutes with any real function, after which the whole batch comes again and, by the
 * redrive policy, every message of it, the good ones too, goes to the dead-letter queue without a
 * word. A pass now goes on past a failure for the other keys, so it takes a pass per failure of the
 * same key, not per failure.
 */
class QueuePoisonPassesTest {
  private static final long POISON = 1_000_000;

  private final ManualClock clock = new ManualClock(1_000_000);

  @Test
  void failuresOfManyKeysTakeOnePassMoreNotOnePassEach() {
    AtomicLong calls = new AtomicLong();
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .keyBy(text -> text.split(",")[0])
            .reduce(
                (a, b) -> {
                  calls.incrementAndGet();
                  if (b.endsWith("x")) {
                    throw new IllegalStateException("poison " + b);
                  }
                  return b;
                },
                Serdes.string())
            .to(EgressOutput.to(records -> {}, TypeName.of("test", "out"), Types.stringType()));
    BatchPipeline batches = pipeline("poison", pipeline);
    // Three messages of each key, the third failing (a key's first never runs the function).
    int messages = 3_000;
    SourceBatch.Builder batch = SourceBatch.unordered("orders");
    for (int i = 0; i < messages; i++) {
      String text = "k" + i / 3 + "," + i + (i % 3 == 2 ? "x" : "");
      batch.add("m" + i, 0, text.getBytes(StandardCharsets.UTF_8));
    }

    BatchResult result = batches.process(batch.build());

    assertEquals(messages / 3, result.failedOffsets().size());
    assertEquals(2 * messages / 3, result.applied());
    assertTrue(
        calls.get() <= 2L * messages,
        "the keyed function ran " + calls.get() + " times for " + messages + " messages");
  }

  /**
   * Random queue batches with failing messages, order groups (FIFO: the messages after a failed one
   * go back with it) and messages keyed to two keys. The function adds a message's value to the
   * key's sum before it fails on a failing one, so the failed message's effect is in the key's
   * state for the rest of the pass, and refuses any message whose key's sum holds a failed
   * message's value. Every message that does not fail is applied once to each of its keys, and none
   * is handed back but the failed ones and, in a group, those after them: one failure does not make
   * other messages fail. Failing messages go to the dead-letter queue after their first failure
   * (the redrive policy); the rest come again until applied.
   */
  @Test
  void everyMessageThatDoesNotFailIsAppliedOnceAndOnlyFailedOnesGoBack() {
    StateSpec<ValueState<Long>> sum = StateSpec.value("sum", Serdes.longs());
    for (long seed = 1; seed <= 40; seed++) {
      Random random = new Random(seed);
      CollectingEgressSink sums = new CollectingEgressSink();
      Pipeline pipeline =
          Pipeline.from(BatchSource.records())
              .flatMap(
                  (byte[] bytes, Collector<String> out) -> {
                    String[] parts = new String(bytes, StandardCharsets.UTF_8).split(";");
                    String[] keys = parts[0].split("\\+");
                    for (int k = 0; k < keys.length; k++) {
                      out.collect(keys[k] + ";" + parts[1] + (k == keys.length - 1 ? ";last" : ""));
                    }
                  })
              .keyBy(text -> text.split(";")[0])
              .process(
                  (Record<String> record, KeyedContext<String> context, Collector<String> out) -> {
                    ValueState<Long> state = context.state(sum);
                    long before = state.value() == null ? 0 : state.value();
                    if (before >= POISON) {
                      throw new IllegalStateException("a failed message's value is in the sum");
                    }
                    String value = record.value().split(";")[1];
                    boolean poison = value.endsWith("x");
                    long after = before + (poison ? POISON : Long.parseLong(value));
                    state.update(after);
                    // A failing message keyed to two keys fails at its second.
                    if (poison && record.value().endsWith(";last")) {
                      throw new IllegalStateException("poison " + record.value());
                    }
                    out.collect(context.key() + ";" + after);
                  },
                  sum)
              .to(EgressOutput.to(sums, TypeName.of("test", "sums"), Types.stringType()));
      BatchPipeline batches = pipeline("mixed-" + seed, pipeline);
      boolean grouped = random.nextBoolean();
      Map<String, String> waiting = new LinkedHashMap<>();
      Map<String, String> groups = new HashMap<>();
      Map<String, Long> expected = new TreeMap<>();
      for (int i = 0; i < 300; i++) {
        String key = "k" + random.nextInt(12);
        String keys = random.nextInt(5) == 0 ? key + "+k" + (12 + random.nextInt(4)) : key;
        long value = 1 + random.nextInt(9);
        boolean poison = random.nextInt(6) == 0;
        String id = "m" + i;
        waiting.put(id, keys + ";" + value + (poison ? "x" : ""));
        groups.put(id, "g" + random.nextInt(4));
        if (!poison) {
          for (String k : keys.split("\\+")) {
            expected.merge(k, value, Long::sum);
          }
        }
      }
      for (int round = 0; round < 100 && !waiting.isEmpty(); round++) {
        SourceBatch.Builder batch = SourceBatch.unordered("orders");
        List<String> ids = new ArrayList<>(waiting.keySet());
        List<String> sent = ids.subList(0, Math.min(ids.size(), 1 + random.nextInt(120)));
        for (String id : sent) {
          Map<String, String> headers =
              grouped ? Map.of(SourceBatch.ORDER_GROUP, groups.get(id)) : Map.of();
          batch.add(id, 0, waiting.get(id).getBytes(StandardCharsets.UTF_8), headers);
        }
        BatchResult result = batches.process(batch.build());
        Set<String> back = Set.copyOf(result.failedOffsets());
        Set<String> failedGroups = new HashSet<>();
        for (String id : sent) {
          boolean poison = waiting.get(id).endsWith("x");
          if (back.contains(id) && !poison) {
            assertTrue(
                grouped && failedGroups.contains(groups.get(id)),
                "seed " + seed + ": " + id + " went back, though it did not fail: " + result);
          }
          if (back.contains(id) && poison) {
            failedGroups.add(groups.get(id));
          }
          // Applied, or failed: the redrive policy takes a failed message to the dead letters.
          if (!back.contains(id) || poison) {
            waiting.remove(id);
          }
        }
        clock.advance(Duration.ofSeconds(1));
      }
      assertTrue(waiting.isEmpty(), "seed " + seed + ": messages never applied: " + waiting);
      Map<String, Long> last = new TreeMap<>();
      for (String text : sums.texts()) {
        String[] parts = text.split(";");
        last.merge(parts[0], Long.parseLong(parts[1]), Math::max);
      }
      // Keys whose every message failed have no sum.
      expected.keySet().retainAll(last.keySet());
      assertEquals(expected, last, "seed " + seed + (grouped ? " (groups)" : ""));
    }
  }

  private BatchPipeline pipeline(String name, Pipeline pipeline) {
    return BatchPipeline.builder(name, pipeline)
        .store(new InMemoryBatchStore(clock))
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }
}
