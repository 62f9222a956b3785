package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** What the hot-key tests share: one key counting every record, and their schedules' helpers. */
final class HotKeys {
  private HotKeys() {}

  /** A running count of every record, all of one key ("hot"), its counts to {@code sink}. */
  static BatchPipeline counts(
      BatchStore store, ManualClock clock, EgressSink sink, BatchFaultHook hook) {
    Pipeline counts =
        Pipeline.from(BatchSource.records())
            .map(bytes -> "1")
            .keyBy(one -> "hot")
            .reduce((a, b) -> Long.toString(Long.parseLong(a) + Long.parseLong(b)), Serdes.string())
            .to(EgressOutput.to(sink, TypeName.of("test", "counts"), Types.stringType()));
    return BatchPipeline.builder("counts", counts)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .faultHook(hook)
        .build();
  }

  /** A sink down (the batch failing at delivery) for the first {@code attempts} attempts. */
  static BatchFaultHook deliveriesFail(int attempts) {
    int[] down = {attempts};
    return (step, detail) -> {
      if (step == BatchFaultHook.Step.DELIVERY && down[0] > 0) {
        down[0]--;
        throw new IllegalStateException("sink down");
      }
    };
  }

  /** A batch of queue {@code queue}: messages {@code ids}, each its id as body. */
  static SourceBatch queue(String queue, long at, String... ids) {
    SourceBatch.Builder batch = SourceBatch.unordered(queue);
    for (String id : ids) {
      batch.add(id, at, id.getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  /** A hook that, at {@code step}, counts {@code reached} down and waits for {@code go}. */
  static BatchFaultHook pauseAt(
      BatchFaultHook.Step step, CountDownLatch reached, CountDownLatch go) {
    return (at, detail) -> {
      if (at == step) {
        reached.countDown();
        await(go);
      }
    };
  }

  static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(20, TimeUnit.SECONDS), "schedule did not reach its step");
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  /** What a batch came to, for a failure message: "ok", its failed records, or its exception. */
  static Object run(BatchPipeline pipeline, SourceBatch batch) {
    try {
      BatchResult result = pipeline.process(batch);
      return result.succeeded() ? "ok" : result.failedOffsets() + " " + result.failure();
    } catch (RuntimeException e) {
      return e;
    }
  }
}
