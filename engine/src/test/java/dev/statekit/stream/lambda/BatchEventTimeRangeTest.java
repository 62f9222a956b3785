package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * On Lambda as in process, a record whose event time is out of the range windows and watermarks
 * work with ({@code EventTimeRangeTest}) is refused by name. Before, one record within the bound of
 * {@code Long.MIN_VALUE} stored its shard's watermark as about {@code Long.MAX_VALUE}, and every
 * later record of the shard was late, forever (the stored watermark never comes down).
 */
class BatchEventTimeRangeTest {
  private final CollectingEgressSink results = new CollectingEgressSink();
  private final InMemoryBatchStore store = new InMemoryBatchStore();
  private final ManualClock clock = new ManualClock(1_000_000);

  private BatchPipeline sessions() {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8).split(","))
            .withWatermarks(
                WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ofMillis(200))
                    .withTimestamps(parts -> Long.parseLong(parts[1])))
            .keyBy(parts -> parts[0])
            .window(Windows.session(Duration.ofMillis(10)))
            .aggregate(
                AggregateFunction.<String[]>count(),
                Serdes.longs(),
                (String key, dev.statekit.stream.TimeWindow w, Long n) ->
                    key + "[" + w.start() + "," + w.end() + ")=" + n)
            .to(EgressOutput.to(results, TypeName.of("test", "counts"), Types.stringType()));
    return BatchPipeline.builder("sessions", plan)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }

  private static SourceBatch batch(String split, long firstSeq, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(split);
    for (int i = 0; i < records.length; i++) {
      batch.add(Long.toString(firstSeq + i), 0, records[i].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  @Test
  void aRecordNearLongMinValueDoesNotMakeEveryLaterRecordLate() {
    BatchPipeline pipeline = sessions();
    BatchResult first = pipeline.process(batch("s1", 100, "x," + (Long.MIN_VALUE + 1)));
    assertTrue(
        first.failure().orElse("").contains("has event time " + (Long.MIN_VALUE + 1)),
        first.toString());
    // Lambda gives up on the batch after its retries (MaximumRetryAttempts) and goes on.
    BatchResult second = pipeline.process(batch("s1", 101, "b,1000", "b,1005"));
    // The range of the refused record is closed without it (replayed without it).
    assertTrue(pipeline.replay(pipeline.givenUp().get(0), batch("s1", 100)).succeeded());
    BatchResult third = pipeline.process(batch("s1", 103, "b,5000"));
    assertEquals(0, second.late() + third.late(), "late records; " + second + third);
    assertTrue(second.succeeded() && third.succeeded(), second + " " + third);
    assertEquals(
        List.of("b[1000,1015)=2"),
        results.texts().stream().filter(t -> t.startsWith("b")).toList(),
        "all results " + results.texts());
  }
}
