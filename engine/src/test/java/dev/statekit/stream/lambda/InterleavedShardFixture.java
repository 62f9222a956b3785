package dev.statekit.stream.lambda;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.testing.ManualClock;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One Kinesis shard of the hot key's counts ({@link HotKeys#counts}), whose batches two pipeline
 * instances run at once, held at fault-hook steps by latches.
 */
abstract class InterleavedShardFixture {
  static final String SHARD = "clicks/shardId-000000000000";
  private static final BigInteger FIRST =
      new BigInteger("49590338271490256608559692538361571095921575989136588898");

  final ManualClock clock = new ManualClock(1_000_000);
  final CollectingEgressSink results = new CollectingEgressSink();
  final InMemoryBatchStore store = new InMemoryBatchStore(clock);

  /** Registers the shard and applies and checkpoints its record 0. */
  void checkpointRecordZero() {
    BatchPipeline setup = instance(BatchFaultHook.NONE);
    setup.registerSplits(java.util.List.of(SHARD));
    setup.process(shard(0, 1));
  }

  /** A pipeline instance (an execution environment) over the shared store, held by {@code hook}. */
  BatchPipeline instance(BatchFaultHook hook) {
    return HotKeys.counts(store, clock, results, hook);
  }

  /** The shard's records {@code from} (inclusive) to {@code to} (exclusive), all of the hot key. */
  SourceBatch shard(int from, int to) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    for (int i = from; i < to; i++) {
      batch.add(
          FIRST.add(BigInteger.valueOf(2L * i)).toString(),
          clock.millis(),
          ("hot," + i).getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  static void await(CountDownLatch latch) {
    try {
      if (!latch.await(20, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out waiting");
      }
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
