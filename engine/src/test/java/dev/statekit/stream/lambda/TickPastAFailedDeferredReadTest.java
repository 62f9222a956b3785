package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.StateKitException.Reason;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.state.StateStoreException;
import dev.statekit.testing.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tick reads each queue's deferred outputs before it fires windows. A store that fails that
 * read (throttled, say) for one queue failed the whole tick before any window fired, so one queue's
 * trouble held every window of the pipeline back for as long as it lasted. Now the tick fires the
 * windows due and reports the read's failure after.
 */
class TickPastAFailedDeferredReadTest {
  private final CollectingEgressSink results = new CollectingEgressSink();
  private final ManualClock clock = new ManualClock(1_000_000);
  private final InMemoryBatchStore memory = new InMemoryBatchStore(clock);
  private volatile boolean failing;

  private final BatchStore store =
      new ForwardingBatchStore(memory) {
        @Override
        public List<DeferredMessage> deferred(String pipeline, String split, int limit) {
          if (failing && split.equals("returns")) {
            throw new StateStoreException(
                Reason.UNAVAILABLE, "simulated: the table throttled the read of " + split);
          }
          return super.deferred(pipeline, split, limit);
        }
      };

  private BatchPipeline counts() {
    return BatchPipeline.builder("counts", WindowedCounts.plan(results))
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }

  private static SourceBatch queue(String split, String... idText) {
    return WindowedCounts.queue(split, idText);
  }

  @Test
  void windowsFireThoughOneQueuesDeferredOutputsCannotBeRead() {
    BatchPipeline pipeline = counts();
    assertTrue(pipeline.process(queue("orders", "o1", "a,5", "o2", "b,100")).succeeded());
    assertTrue(pipeline.process(queue("returns", "r1", "c,105", "r2", "d,200")).succeeded());
    // The queues' watermarks are firable a batch timeout after their batches.
    clock.advance(Duration.ofMinutes(3));
    assertEquals(List.of(), results.texts(), "nothing fired yet");

    failing = true;
    StateStoreException failure =
        assertThrows(StateStoreException.class, pipeline::tick, "the failure shows");
    assertTrue(failure.getMessage().contains("returns"), failure.getMessage());
    assertEquals(
        List.of("a@0=1"),
        results.texts(),
        "the windows due fired though the read of one queue's deferred outputs failed");

    failing = false;
    assertEquals(0, pipeline.tick().windowsFired(), "and only once");
  }
}
