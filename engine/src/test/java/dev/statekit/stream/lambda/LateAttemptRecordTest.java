package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.StateKitException.Reason;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.state.StateStoreException;
import dev.statekit.testing.ManualClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request in flight lands late (reliability.md: an execution environment may die at any
 * instruction; the requests it sent are not cancelled, and DynamoDB may apply them after Lambda
 * moved on). The table throttles the PutItem of batch [1]'s attempt past the adapter's retries on
 * its first attempts (pipelines.md, "If the table refused every attempt of a batch"); its last
 * attempt dies with that PutItem sent, in the batch's first round trip, before it wrote any key.
 * Lambda gives up on [1], names it in the on-failure destination, and hands [2] to another
 * environment, which reads the shard's attempts before DynamoDB applies that PutItem: it sees no
 * batch given up and checkpoints past [1]. Then the PutItem lands. Replaying the on-failure record,
 * as the README says, is refused with "Nothing to replay": an attempt is recorded and the
 * checkpoint is past it, which the engine takes for [1] applied and delivered (BatchEngine.record).
 * Record [1] is applied by nobody: lost. Found by BatchSimulationTest, seed 4521, with
 * -Dsimulation.lateWrites=true -Dsimulation.lateWrites.chance=0.2.
 */
class LateAttemptRecordTest {
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

  /** The environment dying: nothing after it runs. */
  private static final class Died extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Died() {
      super("the execution environment died", null, false, false);
    }
  }

  @Test
  void aGivenUpBatchWhoseAttemptLandsAfterTheNextBatchReadIsReplayedNotTakenForApplied() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    BatchPipeline setup = HotKeys.counts(store, clock, results, BatchFaultHook.NONE);
    setup.registerSplits(List.of(SHARD));
    setup.process(shard(0, 1)); // record 0, checkpointed

    // Attempts of [1] (MaximumRetryAttempts 2): the first two are refused by a throttled table
    // before their attempt is written; the last one's environment dies with the PutItem of its
    // attempt sent, and DynamoDB applies that request later.
    int[] attemptsOfOne = {0};
    Runnable[] inFlight = new Runnable[1];
    BatchStore dying =
        (BatchStore)
            Proxy.newProxyInstance(
                BatchStore.class.getClassLoader(),
                new Class<?>[] {BatchStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("putAttemptInOrder") && ++attemptsOfOne[0] < 3) {
                    throw new StateStoreException(
                        Reason.UNAVAILABLE,
                        "ProvisionedThroughputExceededException past the adapter's retries");
                  }
                  if (method.getName().equals("putAttemptInOrder")) {
                    inFlight[0] =
                        () ->
                            store.putAttemptInOrder(
                                (String) args[0],
                                (String) args[1],
                                (Attempt) args[2],
                                (Long) args[3]);
                    throw new Died();
                  }
                  try {
                    return method.invoke(store, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    for (int attempt = 1; attempt <= 3; attempt++) {
      BatchPipeline environment = HotKeys.counts(dying, clock, results, BatchFaultHook.NONE);
      assertThrows(RuntimeException.class, () -> environment.process(shard(1, 2)));
      clock.advance(java.time.Duration.ofSeconds(2));
    }
    assertTrue(inFlight[0] != null, "the last attempt's PutItem was sent");

    // Lambda gives up on [1] (the on-failure destination names it) and hands [2] to another
    // environment, which reads the shard's attempts before the PutItem lands: it sees nothing
    // given up and checkpoints past [1].
    BatchPipeline next = HotKeys.counts(store, clock, results, BatchFaultHook.NONE);
    assertTrue(next.process(shard(2, 3)).succeeded());
    inFlight[0].run(); // DynamoDB applies the dead invocation's PutItem now

    // The operator replays what the pipeline lists and what the on-failure destination names.
    for (GivenUp range : next.givenUp()) {
      next.replay(range, shard(1, 2));
    }
    assertDoesNotThrow(
        () -> next.replay(GivenUp.onFailure(SHARD, offset(1), offset(1)), shard(1, 2)),
        "record [1] was applied by no invocation (none of its attempts wrote a key),"
            + " yet its replay is refused");
    next.process(shard(3, 4));

    assertEquals(
        List.of("1", "2", "3", "4"),
        HotKeys.countsOncePerId(results.records()),
        "each of records 0 to 3 counted once");
  }
}
