package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * A Kinesis shard closed by a reshard stays among the splits whose state every batch and tick
 * reads, until it is forgotten ({@link BatchPipeline#forgetSplits}) once its records are gone past
 * the stream's retention. Forgetting must not let a window fire twice, and must leave alone a split
 * that may still have records: a recent batch, a batch attempted beyond its checkpoint, a range
 * given up and not replayed.
 */
class ForgottenSplitsTest {
  private static final Duration DAY = Duration.ofHours(24);

  private final CollectingEgressSink results = new CollectingEgressSink();
  private final InMemoryBatchStore store = new InMemoryBatchStore();
  private final ManualClock clock = new ManualClock(1_000_000);

  private BatchPipeline counts() {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8).split(","))
            .withWatermarks(
                WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ZERO)
                    .withTimestamps(parts -> Long.parseLong(parts[1]))
                    .withIdleTimeout(Duration.ofMinutes(10)))
            .keyBy(parts -> parts[0])
            .window(Windows.tumbling(Duration.ofMillis(10)))
            .aggregate(
                AggregateFunction.<String[]>count(),
                Serdes.longs(),
                (String key, dev.statekit.stream.TimeWindow w, Long n) ->
                    key + "@" + w.start() + "=" + n)
            .to(EgressOutput.to(results, TypeName.of("test", "counts"), Types.stringType()));
    return BatchPipeline.builder("counts", plan)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }

  private static SourceBatch batch(String split, long seq, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(split);
    for (int i = 0; i < records.length; i++) {
      batch.add(Long.toString(seq + i), 0, records[i].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private static List<String> names(List<SplitState> splits) {
    return splits.stream().map(SplitState::split).sorted().toList();
  }

  private static SplitState named(List<SplitState> splits, String name) {
    return splits.stream().filter(s -> s.split().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aSplitQuietForADayIsForgottenAndNoWindowFiresTwice() {
    BatchPipeline pipeline = counts();
    pipeline.registerSplits(List.of("s/0", "s/1"));
    pipeline.process(batch("s/0", 100, "k,5"));
    pipeline.process(batch("s/1", 100, "k,7", "j,8"));
    pipeline.process(batch("s/0", 101, "k,21"));
    pipeline.process(batch("s/1", 102, "k,25")); // s/1's last batch: the shard is closed then
    assertEquals(List.of("j@0=1", "k@0=2"), results.texts().stream().sorted().toList());
    long fired = named(pipeline.splits(), "s/1").firedThrough();
    assertTrue(fired > named(pipeline.splits(), "s/0").firedThrough(), "s/1 fired [0, 10)");

    assertEquals(List.of(), pipeline.forgetSplits(List.of("s/1"), DAY), "it had a batch just now");
    clock.advance(DAY.plusMinutes(1));
    assertEquals(List.of("s/1"), pipeline.forgetSplits(List.of("s/1", "s/9"), DAY));
    List<SplitState> left = pipeline.splits();
    assertEquals(List.of(SplitState.TICK, "s/0"), names(left));
    assertEquals(
        fired,
        named(left, SplitState.TICK).firedThrough(),
        "the windows s/1 delivered stay recorded");

    pipeline.tick(); // s/0 idle: its watermark moves on, [20, 30) fires
    pipeline.registerSplits(List.of("s/2")); // a shard the reshard made
    pipeline.process(batch("s/2", 500, "k,3", "j,9"));
    clock.advance(Duration.ofMinutes(2));
    pipeline.tick();
    pipeline.tick();
    assertEquals(
        List.of("j@0=1", "k@0=2", "k@20=2"),
        results.texts().stream().sorted().toList(),
        "every window once; s/2's records are late for [0, 10), which fired");
  }

  @Test
  void aSplitThatMayStillHaveRecordsIsKept() {
    FlakySink sink = new FlakySink(results);
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .to(EgressOutput.to(sink, TypeName.of("test", "out"), Types.stringType()));
    BatchPipeline pipeline = BatchPipeline.builder("plain", plan).store(store).clock(clock).build();
    pipeline.process(batch("s/1", 100, "a"));
    sink.failNext(1);
    assertThrows(RuntimeException.class, () -> pipeline.process(batch("s/1", 101, "b")));
    clock.advance(DAY.plusMinutes(1));
    assertEquals(
        List.of(),
        pipeline.forgetSplits(List.of("s/1"), DAY),
        "a batch was attempted beyond its checkpoint: Lambda may hand it over again");

    pipeline.process(batch("s/1", 102, "c")); // Lambda gave up on 101
    assertEquals(1, pipeline.givenUp().size());
    clock.advance(DAY.plusMinutes(1));
    assertEquals(
        List.of(), pipeline.forgetSplits(List.of("s/1"), DAY), "its range 101 waits for a replay");
    assertFalse(names(pipeline.splits()).isEmpty());
    assertThrows(
        IllegalArgumentException.class,
        () -> pipeline.forgetSplits(List.of("s/1"), Duration.ofSeconds(-1)));
  }
}
