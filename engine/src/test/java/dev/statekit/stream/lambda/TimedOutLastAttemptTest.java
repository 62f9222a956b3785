package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.PipelineFailedException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * ParallelizationFactor 1, MaximumRetryAttempts reached on a batch whose last attempt timed out
 * with its checkpoint write in flight: Lambda gives up on batch [1] and hands over batch [2], and
 * [1]'s checkpoint lands after [2] read the split. From the split alone that looks like two batches
 * of the shard running at once (TwoLanesOfOneShardTest), so [2] is refused at its checkpoint; the
 * message told the user to set the ParallelizationFactor that was 1 already, and now names this
 * case too. Lambda's retry of [2] goes on from [1]'s checkpoint, and every record counts once.
 */
class TimedOutLastAttemptTest extends InterleavedShardFixture {
  @Test
  void theNextBatchIsRefusedSayingWhyAndItsRetryCountsEveryRecordOnce() throws Exception {
    checkpointRecordZero();

    CountDownLatch lastAttemptDelivered = new CountDownLatch(1);
    CountDownLatch nextLoaded = new CountDownLatch(1);
    CountDownLatch lastAttemptCheckpointed = new CountDownLatch(1);
    // The last attempt of batch [1] has written its key and delivered; its checkpoint write is
    // in flight when its time runs out, and lands after [2] read the split.
    BatchPipeline timedOut =
        instance(
            (step, detail) -> {
              if (step == BatchFaultHook.Step.DELIVERED) {
                lastAttemptDelivered.countDown();
                await(nextLoaded);
              }
              if (step == BatchFaultHook.Step.CHECKPOINTED) {
                lastAttemptCheckpointed.countDown();
              }
            });
    // Lambda has given up on [1] and hands over [2] on another execution environment.
    BatchPipeline next =
        instance(
            (step, detail) -> {
              if (step == BatchFaultHook.Step.LOADED && nextLoaded.getCount() > 0) {
                nextLoaded.countDown();
                await(lastAttemptCheckpointed);
              }
            });
    CompletableFuture<BatchResult> landing =
        CompletableFuture.supplyAsync(() -> timedOut.process(shard(1, 2)));
    await(lastAttemptDelivered);
    PipelineFailedException refused =
        assertThrows(PipelineFailedException.class, () -> next.process(shard(2, 3)));
    assertTrue(
        refused.getMessage().contains("wrote its checkpoint late"),
        "the refusal names the late checkpoint, not only ParallelizationFactor: "
            + refused.getMessage());
    landing.get(20, TimeUnit.SECONDS);
    next.process(shard(2, 3)); // Lambda retries [2]: it goes on from [1]'s checkpoint
    assertEquals(List.of(), next.givenUp(), "nothing is left to replay: [1] was applied");
    next.process(shard(3, 4));
    assertEquals(
        List.of("1", "2", "3", "4"),
        HotKeys.countsOncePerId(results.records()),
        "each record of the key counted once");
  }
}
