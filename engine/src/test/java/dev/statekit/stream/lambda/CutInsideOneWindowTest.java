package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.egress.EgressRecord;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A shard's batch cut in its keyed pass between records of one key and one window, out of order
 * within the bound, with a tick between the cut and Lambda's retry: the records not taken set no
 * watermark, so the window does not fire before them, they are not late when they come again, and
 * the window fires once with all of them.
 */
class CutInsideOneWindowTest {
  private static final TypeName RESULTS = TypeName.of("test", "counts");
  private static final TypeName LATE = TypeName.of("test", "late");

  private final List<EgressRecord> delivered = Collections.synchronizedList(new ArrayList<>());
  private final ManualClock clock = new ManualClock(1_000_000);

  private BatchPipeline pipeline() {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .withWatermarks(
                WatermarkStrategy.<String>boundedOutOfOrderness(Duration.ofMillis(300))
                    .withTimestamps(text -> Long.parseLong(text.split(",")[1]))
                    .withIdleTimeout(Duration.ofMinutes(5)))
            .keyBy(text -> text.split(",")[0])
            .window(Windows.tumbling(Duration.ofSeconds(1)))
            .lateRecordsTo(EgressOutput.to(delivered::addAll, LATE, Types.stringType()))
            .aggregate(
                new SlowCountAt("k,800"),
                Serdes.longs(),
                (String key, TimeWindow w, Long n) -> key + "@" + w.start() + "=" + n)
            .to(EgressOutput.to(delivered::addAll, RESULTS, Types.stringType()));
    return BatchPipeline.builder("one-window", plan)
        .store(new InMemoryBatchStore(clock))
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }

  @Test
  void recordsOfAWindowPastTheCutAreNotLateAndTheWindowFiresOnceWithAll() {
    BatchPipeline pipeline = pipeline();
    pipeline.registerSplits(List.of("s0", "s1"));
    assertTrue(pipeline.process(batch("s1", 10, "x,50")).succeeded());

    BatchResult cut =
        pipeline.process(
            batch("s0", 100, "k,100", "k,800", "k,600", "k,900", "j,950"),
            Deadline.after(Duration.ofMillis(300)));
    assertEquals(List.of("102"), cut.failedOffsets(), "cut after k,800: " + cut);
    assertEquals(2, cut.applied(), cut.toString());

    clock.advance(Duration.ofSeconds(10));
    pipeline.tick();
    assertEquals(List.of(), texts(RESULTS), "nothing fired: s1 holds event time at -251");

    BatchResult rest = pipeline.process(batch("s0", 102, "k,600", "k,900", "j,950"));
    assertEquals(0, rest.late(), rest.toString());
    assertEquals(3, rest.applied(), rest.toString());
    pipeline.process(batch("s1", 11, "x,5000"));
    pipeline.process(batch("s0", 105, "z,5000"));
    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofMinutes(2));
      pipeline.tick();
    }

    assertEquals(List.of(), texts(LATE));
    assertEquals(List.of("j@0=1", "k@0=4", "x@0=1"), texts(RESULTS));
    assertEquals(
        3,
        delivered.stream()
            .filter(r -> r.egress().equals(RESULTS))
            .map(EgressRecord::id)
            .distinct()
            .count(),
        "each window once: " + delivered);
  }

  private List<String> texts(TypeName egress) {
    synchronized (delivered) {
      return delivered.stream()
          .filter(r -> r.egress().equals(egress))
          .map(EgressRecord::textOrBase64)
          .distinct()
          .sorted()
          .toList();
    }
  }

  private static SourceBatch batch(String split, long seq, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(split);
    for (int i = 0; i < records.length; i++) {
      batch.add(Long.toString(seq + i), 0, records[i].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }
}
