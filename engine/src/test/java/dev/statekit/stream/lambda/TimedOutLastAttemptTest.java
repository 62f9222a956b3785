package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRecord;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.Types;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * ParallelizationFactor 1, MaximumRetryAttempts reached on a batch whose last attempt timed out
 * while still running (reliability.md: any invocation may run concurrently with another on the same
 * input): Lambda gives up on batch [1] and hands over batch [2] while that last attempt of [1] is
 * still finishing. It checkpoints [1] after [2] read the split: [2], having applied and delivered,
 * was refused at its checkpoint as if the shard's batches interleaved, telling the user to set the
 * ParallelizationFactor that was 1 already, and used up one of its own attempts. Found by {@code
 * ZombieSimulationTest}.
 */
class TimedOutLastAttemptTest {
  private static final String SHARD = "clicks/shardId-000000000000";
  private static final BigInteger FIRST =
      new BigInteger("49590338271490256608559692538361571095921575989136588898");

  private final ManualClock clock = new ManualClock(1_000_000);
  private final CollectingEgressSink results = new CollectingEgressSink();

  private static String offset(int record) {
    return FIRST.add(BigInteger.valueOf(2L * record)).toString();
  }

  private SourceBatch shard(int from, int to) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    for (int i = from; i < to; i++) {
      batch.add(offset(i), clock.millis(), ("hot," + i).getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(20, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out waiting");
      }
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void theNextBatchIsNotRefusedForInterleavingWhenTheGivenUpBatchsLastAttemptCheckpointsLate()
      throws Exception {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    BatchPipeline setup = HotKeys.counts(store, clock, results, BatchFaultHook.NONE);
    setup.registerSplits(List.of(SHARD));
    setup.process(shard(0, 1)); // record 0, checkpointed

    CountDownLatch lastAttemptLoaded = new CountDownLatch(1);
    CountDownLatch nextDelivered = new CountDownLatch(1);
    CountDownLatch lastAttemptCheckpointed = new CountDownLatch(1);
    // The last attempt of batch [1]: Lambda's timer for it runs out after its reads.
    BatchPipeline timedOut =
        HotKeys.counts(
            store,
            clock,
            results,
            (step, detail) -> {
              if (step == BatchFaultHook.Step.LOADED) {
                lastAttemptLoaded.countDown();
                await(nextDelivered);
              }
              if (step == BatchFaultHook.Step.CHECKPOINTED) {
                lastAttemptCheckpointed.countDown();
              }
            });
    // Lambda has given up on [1] and hands over [2] on another execution environment.
    BatchPipeline next =
        HotKeys.counts(
            store,
            clock,
            results,
            (step, detail) -> {
              if (step == BatchFaultHook.Step.DELIVERED) {
                nextDelivered.countDown();
                await(lastAttemptCheckpointed);
              }
            });
    CompletableFuture<BatchResult> stillRunning =
        CompletableFuture.supplyAsync(() -> timedOut.process(shard(1, 2)));
    await(lastAttemptLoaded);
    assertDoesNotThrow(
        () -> next.process(shard(2, 3)),
        "ParallelizationFactor is 1: batch [2] applied and delivered its record, and is refused"
            + " at its checkpoint as if the shard's batches interleaved");
    stillRunning.get(20, TimeUnit.SECONDS);
    // Replaying what the pipeline lists as given up (the late attempt applied it) changes nothing.
    for (GivenUp range : next.givenUp()) {
      next.replay(range, shard(1, 2));
    }
    next.process(shard(3, 4));
    Map<String, String> counts = new TreeMap<>();
    for (EgressRecord record : results.records()) {
      String count = Types.stringType().deserialize(record.value());
      String before = counts.put(record.id(), count);
      assertTrue(before == null || before.equals(count), "one output per id: " + record.id());
    }
    assertEquals(
        List.of("1", "2", "3", "4"),
        counts.values().stream().sorted().toList(),
        "each record of the key counted once");
  }
}
