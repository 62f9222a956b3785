package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Session windows of one key fed by two shards. Shard s0 lags (its watermark 69), so the session
 * [70, 90) of key k cannot have fired (the pipeline's watermark is the least of the shards'). Shard
 * s1 then brings k@85, whose window [85, 105) touches [70, 90). On Lambda a record merges only with
 * sessions ending after its own shard's watermark: one ending before it may be firing in another
 * invocation, which reads the key without writing it (docs/pipelines.md, "Pipelines on Lambda"). So
 * whether k@85 merges depends on whether s1's watermark had passed 89 when it came.
 */
class SessionAcrossShardsTest {
  private final CollectingEgressSink results = new CollectingEgressSink();
  private final InMemoryBatchStore store = new InMemoryBatchStore();
  private final ManualClock clock = new ManualClock(1_000_000);

  private BatchPipeline sessions() {
    return sessions(BatchFaultHook.NONE);
  }

  private BatchPipeline sessions(BatchFaultHook hook) {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8).split(","))
            .withWatermarks(
                WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ZERO)
                    .withTimestamps(parts -> Long.parseLong(parts[1])))
            .keyBy(parts -> parts[0])
            .window(Windows.session(Duration.ofMillis(20)))
            .aggregate(
                AggregateFunction.<String[]>count(),
                Serdes.longs(),
                (String key, dev.statekit.stream.TimeWindow w, Long n) ->
                    key + "@" + w.start() + "-" + w.end() + "=" + n)
            .to(EgressOutput.to(results, TypeName.of("test", "sessions"), Types.stringType()));
    return BatchPipeline.builder("sessions", plan)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .faultHook(hook)
        .build();
  }

  private static SourceBatch batch(String split, long seq, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(split);
    for (int i = 0; i < records.length; i++) {
      batch.add(Long.toString(seq + i), 0, records[i].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private void step(BatchPipeline pipeline, SourceBatch batch) {
    pipeline.process(batch);
    clock.advance(Duration.ofMinutes(2)); // other shards' watermarks become usable
  }

  /**
   * k@85 comes in a batch after s1's watermark passed 99: it opens a session of its own beside [70,
   * 90), each record counted once, in one of them.
   */
  @Test
  void aRecordOfAShardAheadKeepsApartFromASessionEndingBehindItsWatermark() {
    BatchPipeline pipeline = sessions();
    pipeline.registerSplits(List.of("s0", "s1"));
    step(pipeline, batch("s0", 100, "k,70"));
    step(pipeline, batch("s1", 100, "z,100"));
    step(pipeline, batch("s1", 101, "k,85")); // touches [70, 90), behind s1's watermark
    step(pipeline, batch("s0", 101, "z,300"));
    step(pipeline, batch("s1", 102, "z,300"));
    step(pipeline, batch("s0", 102, "z,301"));
    List<String> k = results.texts().stream().filter(t -> t.startsWith("k@")).sorted().toList();
    assertEquals(
        List.of("k@70-90=1", "k@85-105=1"), k, "key k's sessions; all results " + results.texts());
  }

  /** The same records with k@85 in s1's first batch, before s1 had a watermark: it merges. */
  @Test
  void aRecordOfAShardNotAheadMergesWithTheSessionItTouches() {
    BatchPipeline pipeline = sessions();
    pipeline.registerSplits(List.of("s0", "s1"));
    step(pipeline, batch("s0", 100, "k,70"));
    step(pipeline, batch("s1", 100, "z,100", "k,85"));
    step(pipeline, batch("s0", 101, "z,300"));
    step(pipeline, batch("s1", 102, "z,300"));
    step(pipeline, batch("s0", 102, "z,301"));
    List<String> k = results.texts().stream().filter(t -> t.startsWith("k@")).sorted().toList();
    assertEquals(List.of("k@70-105=2"), k, "key k's sessions; all results " + results.texts());
  }

  /**
   * Conflicting writes: s0's batch (k@70) reads k, then s1's batch (k@80, another instance) writes
   * it; s0's write conflicts and k runs again on the fresh item, merging [70, 90) and [80, 100).
   * The first pass's timer of [70, 90), computed on the stale item, is written too. Then k@95 of
   * s0, late for nothing, extends the session. One result for k: [70, 115) = 3, one value per id.
   */
  @Test
  void aSessionMergedByAConflictReRunFiresOnce() throws Exception {
    java.util.concurrent.CountDownLatch loaded = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
    boolean[] first = {true};
    BatchPipeline s0 =
        sessions(
            (step, detail) -> {
              if (step == BatchFaultHook.Step.LOADED && first[0]) {
                first[0] = false;
                loaded.countDown();
                HotKeys.await(go);
              }
            });
    BatchPipeline s1 = sessions();
    s0.registerSplits(List.of("s0", "s1"));
    s1.registerSplits(List.of("s0", "s1"));
    Thread t = new Thread(() -> s0.process(batch("s0", 100, "k,70")));
    t.start();
    HotKeys.await(loaded);
    s1.process(batch("s1", 100, "k,80"));
    go.countDown();
    t.join(20_000);
    clock.advance(Duration.ofMinutes(2));
    step(s0, batch("s0", 101, "k,95"));
    step(s1, batch("s1", 101, "z,300"));
    step(s0, batch("s0", 102, "z,300"));
    step(s1, batch("s1", 102, "z,301"));
    step(s0, batch("s0", 103, "z,302"));
    List<String> k = results.texts().stream().filter(x -> x.startsWith("k@")).sorted().toList();
    assertEquals(List.of("k@70-115=3"), k, "key k's sessions; all results " + results.texts());
  }
}
