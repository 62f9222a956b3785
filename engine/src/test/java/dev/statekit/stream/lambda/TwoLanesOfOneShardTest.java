package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.PipelineFailedException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two batches of one shard running at once (ParallelizationFactor 2, the lanes' partition keys
 * taking contiguous runs of records): the second is refused at its checkpoint, and the pipeline
 * lists no range as given up that Lambda never gave up on. A relaxation of the checkpoint's merge
 * for the late checkpoint of a batch Lambda gave up on (see TimedOutLastAttemptTest) let both pass
 * silently and left such a range, holding the pipeline's windows until someone replayed it.
 */
class TwoLanesOfOneShardTest extends InterleavedShardFixture {
  @Test
  void theSecondLaneIsRefusedAndNothingIsListedAsGivenUp() throws Exception {
    checkpointRecordZero();

    CountDownLatch laneALoaded = new CountDownLatch(1);
    CountDownLatch laneBDelivered = new CountDownLatch(1);
    CountDownLatch laneACheckpointed = new CountDownLatch(1);
    // Lane A (ParallelizationFactor 2): records 1 and 2, a healthy batch Lambda is not giving up.
    BatchPipeline laneA =
        instance(
            (step, detail) -> {
              if (step == BatchFaultHook.Step.LOADED) {
                laneALoaded.countDown();
                await(laneBDelivered);
              }
              if (step == BatchFaultHook.Step.CHECKPOINTED) {
                laneACheckpointed.countDown();
              }
            });
    // Lane B, at the same time: records 3 and 4.
    BatchPipeline laneB =
        instance(
            (step, detail) -> {
              if (step == BatchFaultHook.Step.DELIVERED) {
                laneBDelivered.countDown();
                await(laneACheckpointed);
              }
            });
    CompletableFuture<BatchResult> a =
        CompletableFuture.supplyAsync(() -> laneA.process(shard(1, 3)));
    await(laneALoaded);
    PipelineFailedException refused = null;
    try {
      laneB.process(shard(3, 5));
    } catch (PipelineFailedException e) {
      refused = e;
    }
    a.get(20, TimeUnit.SECONDS);
    assertTrue(
        refused != null && refused.getMessage().contains("ParallelizationFactor is above 1"),
        "the batch of the other lane is refused: " + refused);
    assertEquals(List.of(), laneB.givenUp(), "Lambda gave up on nothing");
  }
}
