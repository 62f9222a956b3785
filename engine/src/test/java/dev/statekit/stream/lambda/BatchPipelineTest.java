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
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchPipelineTest {
  private final CollectingEgressSink results = new CollectingEgressSink();
  private final InMemoryBatchStore store = new InMemoryBatchStore();
  private final ManualClock clock = new ManualClock(1_000_000);

  private BatchPipeline counts() {
    return counts(100);
  }

  private BatchPipeline counts(int timerPage) {
    return BatchPipeline.builder("counts", countsPipeline())
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .timerPage(timerPage)
        .build();
  }

  private Pipeline countsPipeline() {
    return Pipeline.from(BatchSource.records())
        .map(bytes -> new String(bytes, StandardCharsets.UTF_8).split(","))
        .withWatermarks(
            WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ZERO)
                .withTimestamps(parts -> Long.parseLong(parts[1])))
        .keyBy(parts -> parts[0])
        .window(Windows.tumbling(Duration.ofMillis(10)))
        .aggregate(
            AggregateFunction.<String[]>count(),
            Serdes.longs(),
            (String key, dev.statekit.stream.TimeWindow w, Long n) ->
                key + "@" + w.start() + "=" + n)
        .to(EgressOutput.to(results, TypeName.of("test", "counts"), Types.stringType()));
  }

  private static SourceBatch batch(String split, long firstSeq, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(split);
    for (int i = 0; i < records.length; i++) {
      batch.add(Long.toString(firstSeq + i), 0, records[i].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  @Test
  void aWindowFiresWhenTheWatermarkPassesItsEnd() {
    BatchPipeline pipeline = counts();
    BatchResult first = pipeline.process(batch("s1", 100, "a,1", "a,5", "b,3"));
    assertTrue(first.succeeded());
    assertEquals(3, first.applied());
    assertEquals(List.of(), results.texts());

    BatchResult second = pipeline.process(batch("s1", 103, "a,12"));
    assertEquals(1, second.applied());
    assertEquals(List.of("a@0=2", "b@0=1"), results.texts().stream().sorted().toList());
    assertEquals(2, second.windowsFired());
  }

  @Test
  void aTimerPageOutsideOneToAThousandIsRefusedSayingSo() {
    for (int items : new int[] {0, -1, 1_001}) {
      IllegalArgumentException refused =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class,
              () -> BatchPipeline.builder("counts", countsPipeline()).timerPage(items));
      assertEquals("timerPage is 1 to 1000 items, got " + items, refused.getMessage());
    }
  }

  @Test
  void windowsFireWhenEachQueryReadsOneTimerItem() {
    BatchPipeline pipeline = counts(1);
    pipeline.process(batch("s1", 100, "a,1", "b,3"));
    pipeline.process(batch("s1", 102, "c,4"));
    pipeline.process(batch("s1", 103, "d,5"));
    pipeline.process(batch("s1", 104, "e,25"));
    for (int tick = 0; tick < 5; tick++) {
      clock.advance(Duration.ofMinutes(2));
      pipeline.tick();
    }
    assertEquals(
        List.of("a@0=1", "b@0=1", "c@0=1", "d@0=1"),
        results.texts().stream().filter(t -> !t.startsWith("e@")).sorted().toList());
  }

  private static SourceBatch queue(String... idGroupText) {
    SourceBatch.Builder batch = SourceBatch.unordered("orders");
    for (int i = 0; i < idGroupText.length; i += 3) {
      batch.add(
          idGroupText[i],
          0,
          idGroupText[i + 2].getBytes(StandardCharsets.UTF_8),
          Map.of(SourceBatch.ORDER_GROUP, idGroupText[i + 1]));
    }
    return batch.build();
  }

  @Test
  void aFailedRecordFailsTheLaterRecordsOfItsOrderGroupOnly() {
    BatchPipeline pipeline = counts();
    BatchResult first =
        pipeline.process(
            queue("m1", "g1", "a,1", "m2", "g1", "a,oops", "m3", "g1", "a,2", "m4", "g2", "b,3"));
    assertEquals(List.of("m2", "m3"), first.failedOffsets());
    assertTrue(first.failure().orElseThrow().contains("m2"), first.failure().toString());
    assertEquals(2, first.applied());

    // The queue redelivers the group's failed messages with the ones already applied.
    BatchResult retry =
        pipeline.process(queue("m1", "g1", "a,1", "m2", "g1", "a,4", "m3", "g1", "a,2"));
    assertTrue(retry.succeeded());
    assertEquals(2, retry.applied());
    assertEquals(1, retry.repeats());

    pipeline.process(queue("m5", "g1", "a,20"));
    // A queue's watermark fires windows once every batch that read the older one has ended: the
    // tick proposes it, and a tick one batch timeout later fires with it.
    clock.advance(Duration.ofMinutes(2));
    int fired = pipeline.tick().windowsFired();
    clock.advance(Duration.ofMinutes(2));
    fired += pipeline.tick().windowsFired();
    assertEquals(2, fired);
    assertEquals(List.of("a@0=3", "b@0=1"), results.texts().stream().sorted().toList());
  }
}
