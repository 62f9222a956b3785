package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.UnreadableKey;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * On Lambda too, a key whose class has no equals is refused with the reason, before it keys state:
 * its record fails, and nothing of it is applied. A key its serde cannot read back keeps working
 * where no window reads keys back.
 */
class BatchKeysTest {
  private final ManualClock clock = new ManualClock(1_000_000);
  private final CollectingEgressSink out = new CollectingEgressSink();

  /** Concatenates the bodies of each key's messages. */
  private BatchPipeline concatenating(Function<String, Object> key) {
    BatchPipeline pipeline =
        BatchPipeline.builder(
                "keys",
                Pipeline.from(BatchSource.records())
                    .map(b -> new String(b, StandardCharsets.UTF_8))
                    .keyBy(key::apply)
                    .reduce((a, b) -> a + b, Serdes.string())
                    .to(EgressOutput.to(out, TypeName.of("test", "out"), Types.stringType())))
            .store(new InMemoryBatchStore(clock))
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .build();
    pipeline.registerSplits(List.of("q"));
    return pipeline;
  }

  private BatchResult process(BatchPipeline pipeline, String body) {
    SourceBatch.Builder batch = SourceBatch.unordered("q");
    batch.add(body, clock.millis(), body.getBytes(StandardCharsets.UTF_8));
    return pipeline.process(batch.build());
  }

  @Test
  void aKeyEqualOnlyToItselfIsRefusedNamingWhatToKeyBy() {
    BatchResult result = process(concatenating(StringBuilder::new), "a");
    assertEquals(List.of("a"), result.failedOffsets(), result.toString());
    assertTrue(result.failure().orElseThrow().contains("keySerde"), result.toString());
    assertEquals(List.of(), out.records());
  }

  @Test
  void aKeyTheSerdeCannotReadBackStillKeysARunningReduce() {
    BatchPipeline pipeline = concatenating(s -> new UnreadableKey(s.substring(0, 1)));
    for (String body : List.of("a1", "a2")) {
      BatchResult result = process(pipeline, body);
      assertTrue(result.succeeded(), result.toString());
    }
    assertEquals(List.of("a1", "a1a2"), out.texts());
  }
}
