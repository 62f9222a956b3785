package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Windows around a batch Lambda gave up on whose attempts delivered window results before they
 * died. Found by the simulator (seed 6585 and about 36 like it): the batch after the range was late
 * only against the checkpoint's event time, so a record of a window an attempt had fired was
 * counted in it, and the window came out again with another value under the same id. Likewise
 * (seeds 21798, 30620, 96424) a shard that joined (a reshard's child) after an attempt had fired
 * and delivered windows: it was late only against the windows recorded as delivered, and the retry
 * of that batch, held back by the new shard, fired nothing and recorded nothing. And (seed 86925) a
 * replay counted a record in a window that an attempt of an earlier batch of its range had fired.
 */
abstract class GivenUpWindowsContract extends PipelineContract {
  private static final String SHARD = "clicks/shardId-000000000000";

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final String name = "given-up-" + Long.toHexString(System.nanoTime());
  private final AtomicBoolean dying = new AtomicBoolean();
  private final java.util.concurrent.atomic.AtomicReference<BatchFaultHook.Step> dieAt =
      new java.util.concurrent.atomic.AtomicReference<>();

  /** "key@time" counted per key in windows of 100 ms, late records on an output of their own. */
  private BatchPipeline pipeline() {
    Pipeline counts =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8))
            .withWatermarks(
                WatermarkStrategy.<String>boundedOutOfOrderness(Duration.ZERO)
                    .withTimestamps(text -> Long.parseLong(text.substring(text.indexOf('@') + 1)))
                    .withIdleTimeout(Duration.ofHours(1)))
            .keyBy(text -> text.substring(0, text.indexOf('@')))
            .window(Windows.tumbling(Duration.ofMillis(100)))
            .lateRecordsTo(
                EgressOutput.to(results(), TypeName.of("test", "given-up"), Types.stringType()))
            .aggregate(
                AggregateFunction.<String>count(),
                Serdes.longs(),
                (String key, TimeWindow w, Long n) -> key + "@" + w.start() + "=" + n)
            .to(EgressOutput.to(results(), TypeName.of("test", "given-up"), Types.stringType()));
    return BatchPipeline.builder(name, counts)
        .store(store())
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .faultHook(
            (step, detail) -> {
              if (dying.get() && step == BatchFaultHook.Step.DELIVERED) {
                throw new IllegalStateException("the invocation died after its deliveries");
              }
              if (step == dieAt.get()) {
                throw new IllegalStateException("the invocation died at " + step);
              }
            })
        .build();
  }

  private static SourceBatch shard(long first, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    for (String record : records) {
      batch.add(Long.toString(first++), 0, record.getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private Set<String> texts() {
    Set<String> mine = new TreeSet<>();
    stored().forEach((id, text) -> mine.add(id.startsWith(name + "/") ? text : "-"));
    mine.remove("-");
    return mine;
  }

  /**
   * Every attempt of a batch fires k1's window [0, 100), delivers it and dies before its
   * checkpoint; after 11 (MaximumRetryAttempts: 10) Lambda moves on.
   */
  private SourceBatch giveUp(BatchPipeline pipeline) {
    pipeline.registerSplits(List.of(SHARD));
    pipeline.process(shard(1000, "k1@10"));
    SourceBatch givenUp = shard(1001, "k1@20", "k2@250");
    dying.set(true);
    for (int attempt = 0; attempt < 11; attempt++) {
      assertThrows(RuntimeException.class, () -> pipeline.process(givenUp));
    }
    dying.set(false);
    assertEquals(Set.of("k1@0=2"), texts());
    return givenUp;
  }

  @Test
  void aRecordOfAWindowAGivenUpAttemptFiredIsLateAfterIt() {
    BatchPipeline pipeline = pipeline();
    SourceBatch givenUp = giveUp(pipeline);
    // k1@50 came after the given-up batch, whose attempts fired its window: it is late, as it
    // would have been had they checkpointed.
    pipeline.process(shard(1003, "k1@50", "k3@400"));
    GivenUp gap = pipeline.givenUp().get(0);
    assertEquals(0, pipeline.replay(gap, givenUp).applied(), "the attempts had applied both");
    clock.advance(Duration.ofMinutes(2));
    pipeline.tick();
    assertEquals(Set.of("k1@0=2", "k1@50", "k2@200=1"), texts());
  }

  @Test
  void soItIsWhenTheTickNoticedTheRange() {
    BatchPipeline pipeline = pipeline();
    SourceBatch givenUp = giveUp(pipeline);
    // No batch comes for a while: the tick records the range.
    clock.advance(Duration.ofMinutes(10));
    pipeline.tick();
    GivenUp gap = pipeline.givenUp().get(0);
    pipeline.process(shard(1003, "k1@50", "k3@400"));
    pipeline.replay(gap, givenUp);
    clock.advance(Duration.ofMinutes(2));
    pipeline.tick();
    assertEquals(Set.of("k1@0=2", "k1@50", "k2@200=1"), texts());
  }

  @Test
  void aShardThatJoinsAfterAnAttemptFiredIsLateAgainstIt() {
    BatchPipeline pipeline = pipeline();
    pipeline.registerSplits(List.of(SHARD));
    pipeline.process(shard(1000, "k1@10"));
    // The next batch fires k1's window [0, 100), delivers it and dies before its checkpoint.
    SourceBatch batch = shard(1001, "k1@20", "k2@250");
    dying.set(true);
    assertThrows(RuntimeException.class, () -> pipeline.process(batch));
    dying.set(false);
    assertEquals(Set.of("k1@0=2"), texts());
    // The shard is split; its child joins while Lambda retries the batch, which the child, with no
    // batch yet, keeps from firing anything.
    String child = SHARD + "-child";
    pipeline.registerSplits(List.of(SHARD, child));
    pipeline.process(batch);
    // A record of the delivered window on the child is late, not counted in it.
    SourceBatch.Builder records = SourceBatch.ordered(child);
    records.add("2000", 0, "k1@60".getBytes(StandardCharsets.UTF_8));
    records.add("2001", 0, "k3@400".getBytes(StandardCharsets.UTF_8));
    pipeline.process(records.build());
    clock.advance(Duration.ofMinutes(2));
    pipeline.tick();
    pipeline.process(shard(1003, "k3@500"));
    assertEquals(Set.of("k1@0=2", "k1@60", "k2@200=1"), texts());
  }

  @Test
  void aReplayedRecordAfterAnAttemptThatFiredItsWindowIsLate() {
    BatchPipeline pipeline = pipeline();
    SourceBatch first = giveUp(pipeline);
    // Lambda's next batch dies before any key is written, until Lambda gives up on it too.
    SourceBatch second = shard(1003, "k1@60");
    dieAt.set(BatchFaultHook.Step.LOADED);
    for (int attempt = 0; attempt < 11; attempt++) {
      assertThrows(RuntimeException.class, () -> pipeline.process(second));
    }
    dieAt.set(null);
    pipeline.process(shard(1004, "k3@400"));
    GivenUp gap = pipeline.givenUp().get(0);
    // k1@60 comes after the batch whose attempts fired k1's window [0, 100): it is late there.
    pipeline.replay(gap, shard(1001, "k1@20", "k2@250", "k1@60"));
    clock.advance(Duration.ofMinutes(2));
    pipeline.tick();
    assertEquals(Set.of("k1@0=2", "k1@60", "k2@200=1"), texts());
  }
}
