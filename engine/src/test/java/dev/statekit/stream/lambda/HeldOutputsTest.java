package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A live batch after a given-up range takes a key's outputs of that range, delivers them, and keeps
 * them as outputs of the key's own first record of the batch until its checkpoint passes it. Kept
 * under the batch's first record instead (another key's), a retry that stopped before the key moved
 * the checkpoint past them without delivering them: lost.
 */
class HeldOutputsTest {
  private static final String SHARD = "orders/shardId-000000000000";
  private static final BigInteger FIRST =
      new BigInteger("49590338271490256608559692538361571095921575989136588898");

  private final ManualClock clock = new ManualClock(1_000_000);
  private final AtomicBoolean sinkDown = new AtomicBoolean();
  private final AtomicBoolean crashAtDelivery = new AtomicBoolean();
  private final Set<Integer> failing = new TreeSet<>();
  private final Map<String, List<String>> delivered = new TreeMap<>();

  private final EgressSink sink =
      records -> {
        synchronized (delivered) {
          for (EgressRecord record : records) {
            delivered
                .computeIfAbsent(record.id(), id -> new ArrayList<>())
                .add(record.textOrBase64());
          }
        }
      };

  private static String offset(int record) {
    return FIRST.add(BigInteger.valueOf(2L * record)).toString();
  }

  private static int record(String offset) {
    return new BigInteger(offset).subtract(FIRST).shiftRight(1).intValueExact();
  }

  /** Records "key,n": per key a running count, one output per record. */
  private BatchPipeline pipeline(InMemoryBatchStore store) {
    Pipeline counts =
        Pipeline.from(BatchSource.records())
            .map(
                bytes -> {
                  String text = new String(bytes, StandardCharsets.UTF_8);
                  int n = Integer.parseInt(text.split(",")[1]);
                  if (failing.contains(n)) {
                    throw new IllegalStateException("record " + n + " fails this time");
                  }
                  return text.split(",")[0] + ":1";
                })
            .keyBy(value -> value.split(":")[0])
            .reduce(
                (a, b) ->
                    a.split(":")[0]
                        + ":"
                        + (Long.parseLong(a.split(":")[1]) + Long.parseLong(b.split(":")[1])),
                Serdes.string())
            .to(EgressOutput.to(sink, TypeName.of("test", "counts"), Types.stringType()));
    BatchFaultHook hook =
        (step, detail) -> {
          if (step == BatchFaultHook.Step.DELIVERY && sinkDown.get()) {
            throw new IllegalStateException("sink down");
          }
          if (step == BatchFaultHook.Step.DELIVERY && crashAtDelivery.getAndSet(false)) {
            throw new IllegalStateException("crash before delivery");
          }
        };
    BatchPipeline pipeline =
        BatchPipeline.builder("counts", counts)
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .faultHook(hook)
            .build();
    pipeline.registerSplits(List.of(SHARD));
    return pipeline;
  }

  private static SourceBatch shard(long at, String... keys) {
    return shardFrom(0, at, keys);
  }

  private static SourceBatch shardFrom(int from, long at, String... keys) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    for (int i = 0; i < keys.length; i++) {
      int n = from + i;
      batch.add(offset(n), at, (keys[i] + "," + n).getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  /** Record number of each delivered output id (ids carry the source offset). */
  private Map<Integer, List<String>> byRecord() {
    Map<Integer, List<String>> out = new TreeMap<>();
    synchronized (delivered) {
      delivered.forEach(
          (id, values) -> {
            String offset = id.substring(id.indexOf(SHARD) + SHARD.length() + 1).split("/")[0];
            out.put(record(offset), values);
          });
    }
    return out;
  }

  /**
   * Records 0-1 (key K) fail at delivery and Lambda gives up on them. The next batch, records 2-4
   * (2 and 3 of key J, 4 of K), carries K's outputs of 0-1 to record 2 and crashes before
   * delivering. Lambda retries it whole; this time record 3 fails (a passing failure of the
   * operator), so the retry applies record 2 alone, delivers J's output and checkpoints record 2; K
   * is not in that retry and its outputs kept at record 2 are not delivered. Lambda resumes at
   * record 3: K is touched again, and its entry at record 2, behind the checkpoint, is forgotten.
   * The replay of 0-1 finds K applied them and has nothing to deliver.
   */
  @Test
  void outputsCarriedToAnotherKeysFirstRecordSurviveARetryWithoutTheKey() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    BatchPipeline pipeline = pipeline(store);
    long at = clock.millis();

    SourceBatch givenUp = shardFrom(0, at, "K", "K");
    sinkDown.set(true);
    assertThrows(RuntimeException.class, () -> pipeline.process(givenUp));
    sinkDown.set(false);
    clock.advance(Duration.ofSeconds(1));

    SourceBatch live = shardFrom(2, at, "J", "J", "K");
    crashAtDelivery.set(true);
    assertThrows(RuntimeException.class, () -> pipeline.process(live));
    clock.advance(Duration.ofSeconds(1));

    failing.add(3);
    BatchResult retry = pipeline.process(live);
    assertFalse(retry.succeeded());
    assertEquals(offset(3), retry.failedOffsets().get(0));
    failing.clear();
    clock.advance(Duration.ofSeconds(1));

    assertTrue(pipeline.process(shardFrom(3, at, "J", "K")).succeeded());
    clock.advance(Duration.ofSeconds(1));

    assertEquals(1, pipeline.givenUp().size());
    pipeline.replay(pipeline.givenUp().get(0), givenUp);
    assertEquals(List.of(), pipeline.givenUp());

    Map<Integer, List<String>> outputs = byRecord();
    for (List<String> values : outputs.values()) {
      assertEquals(1, new TreeSet<>(values).size(), "one value per id: " + outputs);
    }
    assertEquals(Set.of(0, 1, 2, 3, 4), outputs.keySet(), "an output per record: " + outputs);
  }

  /**
   * Records 0-1 (key K) are given up. Records 2-4 (J, J, K) carry K's outputs of 0-1 to record 2
   * and fail at delivery until Lambda gives up on them too: they never checkpointed, so the next
   * batch notices one range, records 0-4, and the carried entry is inside it. With {@code
   * liveTouchesK} that live batch (records 5-6) has a record of K and takes the range's entries
   * over; without, the range's replay, which has K's record 4, delivers them.
   */
  private void carriedEntryInsideALaterGivenUpRange(boolean liveTouchesK) {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    BatchPipeline pipeline = pipeline(store);
    long at = clock.millis();
    SourceBatch first = shardFrom(0, at, "K", "K");
    sinkDown.set(true);
    assertThrows(RuntimeException.class, () -> pipeline.process(first));
    clock.advance(Duration.ofSeconds(1));
    SourceBatch second = shardFrom(2, at, "J", "J", "K");
    for (int attempt = 0; attempt < 3; attempt++) {
      assertThrows(RuntimeException.class, () -> pipeline.process(second));
      clock.advance(Duration.ofSeconds(1));
    }
    sinkDown.set(false);
    SourceBatch live = shardFrom(5, at, "J", liveTouchesK ? "K" : "J");
    assertTrue(pipeline.process(live).succeeded());
    clock.advance(Duration.ofSeconds(1));
    // The second batch's attempts noticed the first range but never checkpointed: the live batch
    // notices one range, records 0-4, which holds the carried entry at record 2.
    assertEquals(1, pipeline.givenUp().size(), "one range: " + pipeline.givenUp());
    pipeline.replay(pipeline.givenUp().get(0), shardFrom(0, at, "K", "K", "J", "J", "K"));
    clock.advance(Duration.ofSeconds(1));
    assertEquals(List.of(), pipeline.givenUp());
    assertTrue(pipeline.process(shardFrom(7, at, "K")).succeeded());

    Map<Integer, List<String>> outputs = byRecord();
    for (List<String> values : outputs.values()) {
      assertEquals(1, new TreeSet<>(values).size(), "one value per id: " + outputs);
    }
    assertEquals(
        Set.of(0, 1, 2, 3, 4, 5, 6, 7), outputs.keySet(), "an output per record: " + outputs);
    assertEquals(
        List.of(liveTouchesK ? "K:5" : "K:4"), new ArrayList<>(new TreeSet<>(outputs.get(7))));
  }

  @Test
  void carriedEntryInsideALaterRangeGoesWithTheNextLiveBatchOfTheKey() {
    carriedEntryInsideALaterGivenUpRange(true);
  }

  @Test
  void carriedEntryInsideALaterRangeGoesWithThatRangesReplay() {
    carriedEntryInsideALaterGivenUpRange(false);
  }
}
