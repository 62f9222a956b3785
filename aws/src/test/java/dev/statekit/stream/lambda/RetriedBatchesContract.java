package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.FailurePolicy;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.PipelineFailedException;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Lambda runs a Kinesis batch again: as a copy beside the first, going by either answer, or whole
 * when an answer was lost. With a record that fails once (a passing failure) the answers differ.
 * Found by the simulator: a retry from the record one copy answered failed, once the other copy's
 * checkpoint was past it, was refused as if the shard's batches interleaved, and so was that retry
 * handed over again (seeds 3651, 18612, 82908; with MaximumRetryAttempts -1 the shard stopped); a
 * batch tried again whole past the checkpoint its first answer wrote, then given up, was not
 * noticed as given up, and its records counted as applied nowhere when a later range held them
 * (seeds 67458, 4351: applied twice, or never); two batches of one shard at once
 * (ParallelizationFactor 2) noticed overlapping ranges given up, and their replays applied the
 * shared records twice (seed 47307); a range replayed while one before it was still open was closed
 * with its records beyond the checkpoint, where the tick took its replay's attempt for a batch
 * given up and had it replayed again (seed 13666).
 */
abstract class RetriedBatchesContract extends PipelineContract {
  private static final String SHARD = "clicks/shardId-000000000000";
  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final String name = "copies-" + Long.toHexString(System.nanoTime());
  private final AtomicBoolean failing = new AtomicBoolean();

  /** "key,n" counted per key; a record "bad" fails while {@link #failing} is set. */
  private BatchPipeline pipeline(BatchFaultHook hook) {
    return pipeline(hook, store());
  }

  /** A step's calls one after another, in order: each test decides the interleaving. */
  private BatchPipeline pipeline(BatchFaultHook hook, BatchStore store) {
    Pipeline counts =
        Pipeline.from(BatchSource.records())
            .<String>process(
                "passing-failure",
                (record, out) -> {
                  String text = new String(record.value(), StandardCharsets.UTF_8);
                  if (text.equals("bad") && failing.get()) {
                    throw new IllegalStateException("a passing failure");
                  }
                  out.collect(text);
                },
                FailurePolicy.fail())
            .keyBy(text -> text)
            .<String>process(
                (record, context, out) -> {
                  ValueState<Long> seen = context.state(SEEN);
                  long n = seen.value() == null ? 1 : seen.value() + 1;
                  seen.update(n);
                  out.collect(record.value() + "#" + n);
                },
                SEEN)
            .to(EgressOutput.to(results(), TypeName.of("test", "copies"), Types.stringType()));
    return BatchPipeline.builder(name, counts)
        .store(store)
        .concurrency(calls -> calls.forEach(Runnable::run))
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .faultHook(hook)
        .build();
  }

  private static SourceBatch shard(long first, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    for (String record : records) {
      batch.add(Long.toString(first++), 0, record.getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  /** The records of {@code records} that {@code range} holds, as a replay reads them. */
  private static SourceBatch within(GivenUp range, SourceBatch records) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    for (var record : records.records()) {
      if (range.covers(record.position().offset())) {
        batch.add(record.position().offset(), 0, record.value());
      }
    }
    return batch.build();
  }

  private Set<String> texts() {
    Set<String> mine = new TreeSet<>();
    stored().forEach((id, text) -> mine.add(id.startsWith(name + "/") ? text : "-"));
    mine.remove("-");
    return mine;
  }

  @Test
  void aRetryFromTheAnswerOfACopyThatCheckpointedFirstIsApplied() {
    SourceBatch batch = shard(1001, "a", "bad", "b");
    AtomicBoolean copied = new AtomicBoolean();
    BatchPipeline[] other = new BatchPipeline[1];
    // The second copy runs whole after the first has read the split and before it checkpoints: it
    // fails at "bad" and checkpoints first; the first copy applies the rest and checkpoints after.
    BatchPipeline first =
        pipeline(
            (step, detail) -> {
              if (step == BatchFaultHook.Step.LOADED && copied.compareAndSet(false, true)) {
                failing.set(true);
                BatchResult answer = other[0].process(batch);
                failing.set(false);
                assertEquals(List.of("1002"), answer.failedOffsets());
              }
            });
    other[0] = pipeline((step, detail) -> {});
    first.registerSplits(List.of(SHARD));
    assertTrue(first.process(batch).succeeded());

    // Lambda went by the second copy's answer: it resumes at 1002, and may hand that over twice.
    SourceBatch retry = shard(1002, "bad", "b");
    assertTrue(other[0].process(retry).succeeded());
    assertTrue(other[0].process(retry).succeeded());
    other[0].process(shard(1004, "a"));
    assertEquals(Set.of("a#1", "bad#1", "b#1", "a#2"), texts());
  }

  @Test
  void aRetryFromAFailedAnswerHandedOverAgainIsApplied() {
    BatchPipeline pipeline = pipeline((step, detail) -> {});
    pipeline.registerSplits(List.of(SHARD));
    SourceBatch batch = shard(1001, "a", "bad", "b");
    failing.set(true);
    assertEquals(List.of("1002"), pipeline.process(batch).failedOffsets());
    failing.set(false);
    assertTrue(pipeline.process(batch).succeeded(), "a copy of the batch applies the rest");

    // The retry from the first answer applies nothing new; Lambda hands it over once more.
    SourceBatch retry = shard(1002, "bad", "b");
    assertEquals(2, pipeline.process(retry).repeats());
    assertEquals(2, pipeline.process(retry).repeats());
    pipeline.process(shard(1004, "b"));
    assertEquals(Set.of("a#1", "bad#1", "b#1", "b#2"), texts());
  }

  /**
   * The first attempt checkpoints "a" and would answer "bad" failed, but dies first: Lambda tries
   * the whole batch again. Each attempt from then on applies "bad" and "b", delivers their outputs
   * and dies before its checkpoint, until Lambda gives up.
   */
  private BatchPipeline triedWholeAndGivenUp(AtomicReference<BatchFaultHook.Step> dieAt) {
    BatchPipeline pipeline =
        pipeline(
            (step, detail) -> {
              if (step == dieAt.get()) {
                throw new IllegalStateException("the invocation died at " + step);
              }
            });
    pipeline.registerSplits(List.of(SHARD));
    SourceBatch batch = shard(1001, "a", "bad", "b");
    failing.set(true);
    dieAt.set(BatchFaultHook.Step.CHECKPOINTED);
    assertThrows(RuntimeException.class, () -> pipeline.process(batch));
    failing.set(false);
    dieAt.set(BatchFaultHook.Step.DELIVERED);
    for (int attempt = 0; attempt < 10; attempt++) {
      assertThrows(RuntimeException.class, () -> pipeline.process(batch));
    }
    return pipeline;
  }

  @Test
  void aBatchTriedAgainWholePastItsCheckpointThenGivenUpIsReplayedOnce() {
    AtomicReference<BatchFaultHook.Step> dieAt = new AtomicReference<>();
    BatchPipeline pipeline = triedWholeAndGivenUp(dieAt);
    // So Lambda does with the next batch; the one after notices both.
    for (int attempt = 0; attempt < 11; attempt++) {
      assertThrows(RuntimeException.class, () -> pipeline.process(shard(1004, "a")));
    }
    dieAt.set(null);
    pipeline.process(shard(1005, "a"));

    GivenUp gap = pipeline.givenUp().get(0);
    assertEquals(
        List.of(new GivenUp(SHARD, "1001", "1005", gap.watermark(), gap.at(), "1002")),
        pipeline.givenUp());
    assertEquals(0, pipeline.replay(gap, shard(1002, "bad", "b", "a")).applied());
    assertEquals(Set.of("a#1", "bad#1", "b#1", "a#2", "a#3"), texts());
  }

  @Test
  void soItIsWhenNoBatchComesAfterIt() {
    AtomicReference<BatchFaultHook.Step> dieAt = new AtomicReference<>();
    BatchPipeline pipeline = triedWholeAndGivenUp(dieAt);
    dieAt.set(null);
    clock.advance(Duration.ofMinutes(10));
    pipeline.tick();

    GivenUp gap = pipeline.givenUp().get(0);
    assertEquals(
        List.of(new GivenUp(SHARD, "1001", "1004", gap.watermark(), gap.at(), "1002")),
        pipeline.givenUp(),
        "the tick notices the range");
    assertEquals(0, pipeline.replay(gap, shard(1002, "bad", "b")).applied());
    pipeline.process(shard(1004, "b"));
    assertEquals(Set.of("a#1", "bad#1", "b#1", "b#2"), texts());
  }

  @Test
  void interleavedBatchesNoticeRangesThatDoNotOverlap() {
    AtomicBoolean dying = new AtomicBoolean(true);
    BatchPipeline lane = pipeline((step, detail) -> {}, store());
    // The other lane's batch runs whole while this one records its attempt: neither sees the
    // other's attempt; its record fails, and it records the range it noticed.
    AtomicBoolean interleave = new AtomicBoolean();
    BatchStore store =
        (BatchStore)
            java.lang.reflect.Proxy.newProxyInstance(
                BatchStore.class.getClassLoader(),
                new Class<?>[] {BatchStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("putAttemptInOrder")
                      && interleave.compareAndSet(true, false)) {
                    failing.set(true);
                    assertEquals(List.of("1003"), lane.process(shard(1003, "bad")).failedOffsets());
                    failing.set(false);
                  }
                  try {
                    return method.invoke(store(), args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    BatchPipeline pipeline =
        pipeline(
            (step, detail) -> {
              if (dying.get() && step == BatchFaultHook.Step.LOADED) {
                throw new IllegalStateException("the invocation died");
              }
            },
            store);
    pipeline.registerSplits(List.of(SHARD));
    SourceBatch givenUp = shard(1001, "a", "b");
    for (int attempt = 0; attempt < 11; attempt++) {
      assertThrows(RuntimeException.class, () -> pipeline.process(givenUp));
    }
    dying.set(false);
    interleave.set(true);
    pipeline.process(shard(1004, "a", "b"));

    List<GivenUp> ranges = pipeline.givenUp();
    assertEquals(2, ranges.size(), ranges.toString());
    assertTrue(!ranges.get(0).overlaps(ranges.get(1)), "ranges that overlap: " + ranges);
    for (GivenUp range : ranges) {
      pipeline.replay(range, within(range, shard(1001, "a", "b", "bad")));
    }
    assertEquals(Set.of("a#1", "b#1", "bad#1", "a#2", "b#2"), texts());
  }

  @Test
  void rangesAheadOfTheCheckpointAreReplayedInTheirOrder() {
    BatchPipeline pipeline = pipeline((step, detail) -> {});
    pipeline.registerSplits(List.of(SHARD));
    assertTrue(pipeline.process(shard(1001, "a")).succeeded());
    // Lambda gave up on the shard's next two batches with no attempt reaching the table: only the
    // on-failure destination names them. The first one's replay fails at its record.
    SourceBatch rest = shard(1002, "bad", "a");
    GivenUp first = GivenUp.onFailure(SHARD, "1002", "1002");
    failing.set(true);
    assertEquals(List.of("1002"), pipeline.replay(first, within(first, rest)).failedOffsets());
    failing.set(false);
    GivenUp second = GivenUp.onFailure(SHARD, "1003", "1003");
    try {
      pipeline.replay(second, within(second, rest));
    } catch (IllegalArgumentException refused) {
      assertTrue(refused.getMessage().startsWith("Replay GivenUp["), refused.getMessage());
    }
    // The operator replays what the pipeline lists, and again whatever it lists later.
    for (int round = 0; round < 3; round++) {
      for (GivenUp range : pipeline.givenUp()) {
        assertTrue(pipeline.replay(range, within(range, rest)).succeeded());
      }
      clock.advance(Duration.ofMinutes(30));
      pipeline.tick();
    }
    assertEquals(List.of(), pipeline.givenUp());
    pipeline.process(shard(1004, "a"));
    assertEquals(Set.of("a#1", "bad#1", "a#2", "a#3"), texts());
  }

  private static SourceBatch records(String... offsetsAndTexts) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    for (int i = 0; i < offsetsAndTexts.length; i += 2) {
      batch.add(offsetsAndTexts[i], 0, offsetsAndTexts[i + 1].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  @Test
  void aBatchRefusedAtItsCheckpointCountsInTheRangeNoticedAfterIt() {
    // ParallelizationFactor 2: lane "b" runs a whole batch after lane "a" read the attempts and
    // before it writes. Lane b's batch starts past lane a's, so it takes lane a's attempt for a
    // batch Lambda gave up on, and checkpoints past it.
    BatchPipeline laneB = pipeline((step, detail) -> {}, store());
    AtomicBoolean laneBRan = new AtomicBoolean();
    BatchStore store =
        (BatchStore)
            java.lang.reflect.Proxy.newProxyInstance(
                BatchStore.class.getClassLoader(),
                new Class<?>[] {BatchStore.class},
                (proxy, method, args) -> {
                  try {
                    Object result = method.invoke(store(), args);
                    if (method.getName().equals("latestAttempts")
                        && laneBRan.compareAndSet(false, true)) {
                      assertTrue(laneB.process(records("1006", "b", "1008", "b")).succeeded());
                    }
                    return result;
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    BatchPipeline laneA = pipeline((step, detail) -> {}, store);
    laneA.registerSplits(List.of(SHARD));
    SourceBatch a = records("1001", "a", "1003", "a", "1005", "a");
    // Lane a applies and delivers its records; its checkpoint finds lane b's.
    assertThrows(PipelineFailedException.class, () -> laneA.process(a));

    assertEquals(1, laneB.givenUp().size(), laneB.givenUp().toString());
    for (GivenUp range : laneB.givenUp()) {
      laneB.replay(range, within(range, a));
    }
    assertEquals(List.of(), laneB.givenUp());
    assertTrue(laneB.process(records("1009", "b")).succeeded());
    assertEquals(Set.of("a#1", "a#2", "a#3", "b#1", "b#2", "b#3"), texts());
  }
}
