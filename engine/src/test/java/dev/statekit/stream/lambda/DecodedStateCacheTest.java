package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A warm pipeline keeps the keys it wrote decoded between batches. These schedules would break a
 * cache used on anything but the very item it was made from: two instances taking turns on one
 * shard, a key write that failed after the batch ran, and a table whose key item went back to an
 * older copy and was then written again to the version the cache knew.
 */
class DecodedStateCacheTest {
  private final ManualClock clock = new ManualClock(1_000_000);
  private final List<EgressRecord> delivered = new java.util.ArrayList<>();
  private final EgressSink results = delivered::addAll;
  private final RestorableKeys store = new RestorableKeys(new InMemoryBatchStore(clock));
  private final AtomicInteger decodes = new AtomicInteger();

  /** Longs, counting every decode: how often a state's bytes were decoded. */
  private final Serde<Long> counted =
      new Serde<>() {
        @Override
        public byte[] encode(Long value) {
          return Serdes.longs().encode(value);
        }

        @Override
        public Long decode(byte[] bytes) {
          decodes.incrementAndGet();
          return Serdes.longs().decode(bytes);
        }
      };

  private final StateSpec<ValueState<Long>> seen = StateSpec.value("seen", counted);

  /** Each record of a key emits {@code key#n}, n its running count. */
  private BatchPipeline running(BatchFaultHook hook) {
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .keyBy(key -> key)
            .<String>process(
                (record, context, out) -> {
                  ValueState<Long> state = context.state(seen);
                  long n = state.value() == null ? 1 : state.value() + 1;
                  state.update(n);
                  out.collect(record.value() + "#" + n);
                },
                seen)
            .to(EgressOutput.to(results, TypeName.of("test", "running"), Types.stringType()));
    return BatchPipeline.builder("running", pipeline)
        .store(store)
        .clock(clock)
        .faultHook(hook)
        .build();
  }

  private BatchPipeline windowed() {
    return windowed(BatchFaultHook.NONE);
  }

  /** Records {@code key,time}; counts per key in tumbling windows of 10 ms. */
  private BatchPipeline windowed(BatchFaultHook hook) {
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8).split(","))
            .withWatermarks(
                WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ZERO)
                    .withTimestamps(parts -> Long.parseLong(parts[1])))
            .keyBy(parts -> parts[0])
            .window(Windows.tumbling(Duration.ofMillis(10)))
            .aggregate(
                AggregateFunction.<String[]>count(),
                counted,
                (String key, dev.statekit.stream.TimeWindow w, Long n) ->
                    key + "@" + w.start() + "=" + n)
            .to(EgressOutput.to(results, TypeName.of("test", "counts"), Types.stringType()));
    return BatchPipeline.builder("counts", pipeline)
        .store(store)
        .clock(clock)
        .faultHook(hook)
        .build();
  }

  private static SourceBatch batch(long firstSeq, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered("s1");
    for (int i = 0; i < records.length; i++) {
      batch.add(Long.toString(firstSeq + i), 0, records[i].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  /**
   * The outputs' values, one per output id, sorted; fails if an id was delivered again with another
   * value (the sink keeps the first of each id).
   */
  private List<String> values() {
    Map<String, String> byId = new TreeMap<>();
    for (EgressRecord record : delivered) {
      String text = Types.stringType().deserialize(record.value());
      String before = byId.put(record.id(), text);
      assertTrue(before == null || before.equals(text), record.id() + ": " + before + ", " + text);
    }
    return byId.values().stream().sorted().toList();
  }

  @Test
  void aWarmInstanceDecodesNothingItWroteItself() {
    BatchPipeline pipeline = running(BatchFaultHook.NONE);
    pipeline.process(batch(100, "a", "b"));
    int cold = decodes.get();
    pipeline.process(batch(102, "a", "b"));
    pipeline.process(batch(104, "a", "b", "a"));
    assertEquals(cold, decodes.get(), "the batches after the first decoded state again");
    assertEquals(List.of("a#1", "a#2", "a#3", "a#4", "b#1", "b#2", "b#3"), values());
  }

  @Test
  void twoInstancesTakingTurnsOnOneShardCountEveryRecordOnce() {
    BatchPipeline first = running(BatchFaultHook.NONE);
    BatchPipeline second = running(BatchFaultHook.NONE);
    first.process(batch(100, "a", "a"));
    second.process(batch(102, "a"));
    // The first instance's copies of "a" are a version behind: its write conflicts, and the
    // batch runs again on the item as the second left it.
    first.process(batch(103, "a"));
    second.process(batch(104, "a"));
    first.process(batch(105, "a", "b"));
    assertEquals(List.of("a#1", "a#2", "a#3", "a#4", "a#5", "a#6", "b#1"), values());
  }

  @Test
  void aKeyWriteThatFailedLeavesNothingOfThatBatchInTheCache() {
    AtomicInteger failWrites = new AtomicInteger();
    BatchFaultHook hook =
        (step, detail) -> {
          if (step == BatchFaultHook.Step.KEY_WRITE && failWrites.getAndDecrement() > 0) {
            throw new IllegalStateException("the write of " + detail + " failed");
          }
        };
    BatchPipeline pipeline = running(hook);
    pipeline.process(batch(100, "a", "a"));
    failWrites.set(1);
    assertThrows(IllegalStateException.class, () -> pipeline.process(batch(102, "a")));
    // Lambda retries the batch on the same (warm) instance: "a" was counted in memory to 3 by the
    // failed attempt, but its item still says 2.
    pipeline.process(batch(102, "a"));
    pipeline.process(batch(103, "a"));
    assertEquals(List.of("a#1", "a#2", "a#3", "a#4"), values());
  }

  @Test
  void aWindowFiredFromTheIndexUsesTheItemAnotherInstanceWrote() {
    BatchPipeline first = windowed();
    BatchPipeline second = windowed();
    first.process(batch(100, "a,1"));
    second.process(batch(101, "a,2"));
    // "a" is not in this batch: its window, due now, fires from the item as read, version 2.
    first.process(batch(102, "b,15"));
    assertEquals(List.of("a@0=2"), values());
  }

  @Test
  void aWindowFiredFromTheIndexLeavesTheKeyDecodedAndFiresAgainOnARetry() {
    AtomicInteger crashes = new AtomicInteger();
    BatchPipeline pipeline =
        windowed(
            (step, detail) -> {
              if (step == BatchFaultHook.Step.DELIVERY && crashes.getAndDecrement() > 0) {
                throw new IllegalStateException("crash before the deliveries");
              }
            });
    pipeline.process(batch(100, "a,1", "a,2"));
    // "a" is not in this batch: its window fires from the index, on a copy of its state. The
    // batch dies before delivering; its retry fires the window again, from the same state.
    crashes.set(1);
    assertThrows(IllegalStateException.class, () -> pipeline.process(batch(102, "b,15")));
    assertEquals(List.of(), values());
    pipeline.process(batch(102, "b,15"));
    assertEquals(List.of("a@0=2"), values());
    pipeline.process(batch(103, "a,16"));
    pipeline.process(batch(104, "c,25"));
    assertEquals(List.of("a@0=2", "a@10=1", "b@10=1"), values());
    assertEquals(0, decodes.get(), "a warm instance decoded state it had written itself");
  }

  @Test
  void anItemRestoredToAnOlderCopyAndWrittenAgainIsDecodedAnew() {
    BatchPipeline first = windowed();
    BatchPipeline second = windowed();
    first.process(batch(100, "a,1"));
    Map<String, KeyItem> older = store.keys();
    first.process(batch(101, "a,2"));
    // The table goes back to the older copy of "a" (version 1); the other instance then writes
    // it to version 2 again, with other content than the first instance's version 2.
    store.restore(older);
    second.process(batch(102, "a,3", "a,4"));
    first.process(batch(104, "b,15"));
    // Record 101 went with the restore: the window counts the records of the item it fires from.
    assertEquals(List.of("a@0=3"), values());
  }

  /**
   * The in-memory store, with its key items kept apart so that a test can put them back to an older
   * copy, as a restore of the table would.
   */
  private static final class RestorableKeys extends ForwardingBatchStore {
    private final Map<String, KeyItem> keys = new HashMap<>();

    RestorableKeys(InMemoryBatchStore rest) {
      super(rest);
    }

    synchronized Map<String, KeyItem> keys() {
      return new HashMap<>(keys);
    }

    synchronized void restore(Map<String, KeyItem> older) {
      keys.clear();
      keys.putAll(older);
    }

    @Override
    public synchronized Map<String, KeyItem> readKeys(
        String pipeline, String operator, Collection<String> encoded) {
      Map<String, KeyItem> found = new HashMap<>();
      for (String key : encoded) {
        KeyItem item = keys.get(pipeline + "#" + operator + "#" + key);
        if (item != null) {
          // A fresh copy of the bytes, as a read from DynamoDB gives.
          found.put(
              key,
              new KeyItem(
                  key,
                  item.version(),
                  item.state() == null ? null : item.state().clone(),
                  item.bookkeeping() == null ? null : item.bookkeeping().clone()));
        }
      }
      return found;
    }

    @Override
    public synchronized Set<String> writeKeys(
        String pipeline, String operator, List<KeyWrite> writes) {
      Set<String> conflicts = new java.util.HashSet<>();
      for (KeyWrite write : writes) {
        String scoped = pipeline + "#" + operator + "#" + write.key();
        KeyItem stored = keys.get(scoped);
        long version = stored == null ? 0 : stored.version();
        if (version != write.expectedVersion()) {
          conflicts.add(write.key());
        } else {
          keys.put(
              scoped, new KeyItem(write.key(), version + 1, write.state(), write.bookkeeping()));
        }
      }
      return conflicts;
    }
  }
}
