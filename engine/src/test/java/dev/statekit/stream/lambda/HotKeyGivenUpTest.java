package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRecord;
import dev.statekit.testing.ManualClock;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A hot key whose outputs of a range Lambda gave up on fill its share of the item ({@code
 * ItemLimit.BATCH_OUTPUT_BYTES}). The key keeps those outputs until they are delivered; they used
 * to be delivered only by the range's replay, so until an operator replayed it (hours, maybe never)
 * they filled the key's share, and every live batch of the shard applied one record of the key and
 * handed the rest back: the shard crawled at one record per batch and fell behind the stream's
 * retention.
 */
class HotKeyGivenUpTest {
  private static final String SHARD = "orders/shardId-000000000000";
  private static final BigInteger FIRST =
      new BigInteger("49590338271490256608559692538361571095921575989136588898");

  private final CollectingEgressSink results = new CollectingEgressSink();
  private final ManualClock clock = new ManualClock(1_000_000);
  private final AtomicBoolean sinkDown = new AtomicBoolean();

  private static String offset(int record) {
    return FIRST.add(BigInteger.valueOf(2L * record)).toString();
  }

  private static int record(String offset) {
    return new BigInteger(offset).subtract(FIRST).shiftRight(1).intValueExact();
  }

  private SourceBatch shard(int from, int to) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    for (int i = from; i < to; i++) {
      batch.add(offset(i), clock.millis(), ("hot," + i).getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private BatchPipeline pipeline(InMemoryBatchStore store) {
    BatchFaultHook hook =
        (step, detail) -> {
          if (step == BatchFaultHook.Step.DELIVERY && sinkDown.get()) {
            throw new IllegalStateException("sink down");
          }
        };
    BatchPipeline pipeline = HotKeys.counts(store, clock, results, hook);
    pipeline.registerSplits(List.of(SHARD));
    return pipeline;
  }

  /**
   * Records 0-999 of one key fail at delivery until Lambda gives up on them (11 attempts); the key
   * applied about 510 of them and keeps their outputs. The shard goes on with records 1000-1999,
   * the sink back up: they all get through within a few batches, and the range's outputs are
   * delivered by them, before any replay.
   */
  @Test
  void liveBatchesAfterAGivenUpRangeAreNotHeldToOneRecordOfTheKey() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    BatchPipeline pipeline = pipeline(store);
    SourceBatch givenUp = shard(0, 1_000);
    sinkDown.set(true);
    for (int attempt = 0; attempt < 11; attempt++) {
      assertThrows(RuntimeException.class, () -> pipeline.process(givenUp));
      clock.advance(Duration.ofSeconds(1));
    }
    sinkDown.set(false);
    int from = 1_000;
    int batches = 0;
    for (; batches < 6 && from < 2_000; batches++) {
      BatchResult result = pipeline.process(shard(from, 2_000));
      from = result.succeeded() ? 2_000 : record(result.failedOffsets().get(0));
      clock.advance(Duration.ofSeconds(1));
    }
    assertEquals(2_000, from, "the live records 1000-1999 got through in " + batches + " batches");
    assertEquals(1, pipeline.givenUp().size(), "the range is still open: no replay yet");
    Map<Integer, String> counts = counts();
    int appliedBefore = 0;
    while (counts.containsKey(appliedBefore)) {
      appliedBefore++;
    }
    assertTrue(
        appliedBefore > 400,
        "the outputs of the range's records the key applied were delivered without a replay:"
            + " records 0-"
            + (appliedBefore - 1));

    // The replay applies the rest of the range while the shard goes on: what each call delivers
    // of the range, the next live batch takes over, so the next call has the key's share again.
    GivenUp range = pipeline.givenUp().get(0);
    int live = 2_000;
    int calls = 0;
    for (; calls < 8 && !pipeline.givenUp().isEmpty(); calls++) {
      pipeline.replay(range, shard(0, 1_000));
      assertTrue(pipeline.process(shard(live, live + 5)).succeeded(), "a live batch");
      live += 5;
      clock.advance(Duration.ofSeconds(1));
    }
    assertEquals(
        List.of(), pipeline.givenUp(), "the replay closed the range in " + calls + " calls");
    counts = counts();
    assertEquals(live, counts.size(), "one output per record");
    assertEquals(
        (long) live,
        counts.values().stream().mapToLong(Long::parseLong).max().orElse(0),
        "the key counted every record once");
  }

  /** The count each record's output carries, by record; an id delivered twice fails the test. */
  private Map<Integer, String> counts() {
    Map<Integer, String> counts = new HashMap<>();
    for (EgressRecord record : results.records()) {
      String id = record.id();
      String offset = id.substring(id.indexOf(SHARD) + SHARD.length() + 1).split("/")[0];
      String before = counts.put(record(offset), record.textOrBase64());
      assertEquals(null, before, "two outputs of record " + record(offset));
    }
    return counts;
  }
}
