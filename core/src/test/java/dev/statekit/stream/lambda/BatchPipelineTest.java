package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingSink;
import dev.statekit.function.TypeName;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.Serdes;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchPipelineTest {
  private final CollectingSink results = new CollectingSink();
  private final InMemoryBatchStore store = new InMemoryBatchStore();

  private BatchPipeline counts() {
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
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
    return BatchPipeline.builder("counts", pipeline).store(store).build();
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
}
