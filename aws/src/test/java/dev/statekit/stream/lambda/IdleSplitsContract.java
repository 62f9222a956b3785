package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import org.junit.jupiter.api.Test;

/**
 * Two shards, one of which never gets a batch: windows wait for it until it has been idle for the
 * idle timeout, then the tick moves its event time on and the windows fire, on the test's clock.
 */
abstract class IdleSplitsContract extends PipelineContract {
  private static final String ACTIVE = "clicks/shardId-000000000000";
  private static final String IDLE = "clicks/shardId-000000000001";

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private long sequence = 1000;

  private BatchPipeline pipeline() {
    Pipeline counts =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8).split("@"))
            .withWatermarks(
                WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ZERO)
                    .withTimestamps(parts -> Long.parseLong(parts[1]))
                    .withIdleTimeout(Duration.ofMinutes(1)))
            .keyBy(parts -> parts[0])
            .window(Windows.tumbling(Duration.ofMillis(100)))
            .aggregate(
                AggregateFunction.<String[]>count(),
                Serdes.longs(),
                (String key, TimeWindow w, Long n) -> key + "@" + w.start() + "=" + n)
            .to(EgressOutput.to(results(), TypeName.of("test", "idle"), Types.stringType()));
    return BatchPipeline.builder("idle-" + Long.toHexString(System.nanoTime()), counts)
        .store(store())
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }

  private BatchResult active(BatchPipeline pipeline, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(ACTIVE);
    for (String record : records) {
      batch.add(Long.toString(sequence++), 0, record.getBytes(StandardCharsets.UTF_8));
    }
    return pipeline.process(batch.build());
  }

  private List<String> texts() {
    return stored().values().stream().sorted().toList();
  }

  @Test
  void windowsWaitForAnIdleShardUntilTheTickMovesItOn() {
    BatchPipeline pipeline = pipeline();
    assertEquals(List.of(ACTIVE, IDLE), pipeline.registerSplits(List.of(ACTIVE, IDLE)));

    assertEquals(0, active(pipeline, "a@10", "a@20", "b@150").windowsFired());
    assertEquals(new TickResult(List.of(), 0, Long.MIN_VALUE, 0), pipeline.tick());

    clock.advance(Duration.ofSeconds(30));
    active(pipeline, "c@160");
    TickResult early = pipeline.tick();
    assertEquals(List.of(), early.idleSplits(), "not idle before the idle timeout");
    assertEquals(0, early.windowsFired());

    clock.advance(Duration.ofSeconds(40));
    active(pipeline, "c@170");
    TickResult idle = pipeline.tick();
    // The idle shard follows the others, but only once no batch that read it can still run.
    assertEquals(List.of(IDLE), idle.idleSplits());
    assertEquals(0, idle.windowsFired());
    assertEquals(List.of(), texts());

    clock.advance(Duration.ofSeconds(70));
    TickResult fired = pipeline.tick();
    assertEquals(List.of(ACTIVE, IDLE), fired.idleSplits().stream().sorted().toList());
    assertEquals(1, fired.windowsFired());
    assertEquals(List.of("a@0=2"), texts());

    // Both shards idle: event time follows the clock (the never-read shard following the other a
    // batch timeout behind), and the last windows fire too.
    int later = 0;
    for (int tick = 0; tick < 2; tick++) {
      clock.advance(Duration.ofSeconds(70));
      later += pipeline.tick().windowsFired();
    }
    assertEquals(2, later);
    assertEquals(List.of("a@0=2", "b@100=1", "c@100=2"), texts());
    clock.advance(Duration.ofSeconds(70));
    assertEquals(0, pipeline.tick().windowsFired(), "nothing fires twice");
    assertEquals(3, stored().size());
  }
}
