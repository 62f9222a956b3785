package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A flatMap that collected a value and then threw, on a queue's batch: what it collected was left
 * in the operator's reusable buffer, and the pass, going on with the next record, sent it out as
 * that record's own; the failed record, handed back and retried, sent it again. The failed record's
 * outputs go with it, nowhere else.
 */
class FlatMapFailureTest {
  private final CollectingEgressSink results = new CollectingEgressSink();

  @Test
  void whatAFailingFlatMapCollectedIsNotSentWithTheNextRecord() {
    BatchPipeline pipeline =
        BatchPipeline.builder(
                "flat",
                Pipeline.from(BatchSource.records())
                    .flatMap(
                        (byte[] bytes, dev.statekit.stream.Collector<String> out) -> {
                          String text = new String(bytes, StandardCharsets.UTF_8);
                          out.collect(text + "-part");
                          if (text.equals("boom")) {
                            throw new IllegalStateException("boom");
                          }
                        })
                    .to(EgressOutput.to(results, TypeName.of("test", "flat"), Types.stringType())))
            .store(new InMemoryBatchStore())
            .clock(new ManualClock(1_000_000))
            .batchTimeout(Duration.ofMinutes(1))
            .build();
    SourceBatch batch =
        SourceBatch.unordered("orders")
            .add(
                "m1",
                0,
                "boom".getBytes(StandardCharsets.UTF_8),
                Map.of(SourceBatch.ORDER_GROUP, "g1"))
            .add(
                "m2",
                0,
                "ok".getBytes(StandardCharsets.UTF_8),
                Map.of(SourceBatch.ORDER_GROUP, "g2"))
            .build();
    BatchResult result = pipeline.process(batch);
    assertEquals(List.of("m1"), result.failedOffsets());
    // m1 failed: nothing of it goes out (it is handed back and retried whole).
    assertEquals(List.of("ok-part"), results.texts());
  }
}
