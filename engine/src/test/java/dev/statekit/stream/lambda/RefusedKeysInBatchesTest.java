package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A key the key check refuses fails its record as a failing record does: in a queue's batch that
 * message alone, the others applied; on a shard that record, and the records after it held back
 * (answered as failed from it), none skipped.
 */
class RefusedKeysInBatchesTest {
  private final ManualClock clock = new ManualClock(1_000_000);
  private final CollectingEgressSink out = new CollectingEgressSink();

  private java.util.function.Function<String, Object> key =
      s -> s.startsWith("bad") ? (Object) new StringBuilder(s) : s;

  private BatchPipeline pipeline() {
    java.util.function.Function<String, Object> keyOf = key;
    BatchPipeline pipeline =
        BatchPipeline.builder(
                "keys",
                Pipeline.from(BatchSource.records())
                    .map(b -> new String(b, StandardCharsets.UTF_8))
                    .keyBy(keyOf::apply)
                    .reduce((a, b) -> a + b, Serdes.string())
                    .to(EgressOutput.to(out, TypeName.of("test", "out"), Types.stringType())))
            .store(new InMemoryBatchStore(clock))
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .build();
    pipeline.registerSplits(List.of("q"));
    return pipeline;
  }

  private BatchResult run(SourceBatch.Builder batch) {
    String[] bodies = {"a", "bad", "b"};
    for (int i = 0; i < 3; i++) {
      String offset = batch.build().ordered() ? Integer.toString(i + 1) : bodies[i];
      batch.add(offset, clock.millis(), bodies[i].getBytes(StandardCharsets.UTF_8));
    }
    return pipeline().process(batch.build());
  }

  @Test
  void aQueueBatchFailsOnlyTheRefusedRecord() {
    BatchResult result = run(SourceBatch.unordered("q"));
    assertEquals(List.of("bad"), result.failedOffsets(), result.toString());
    assertEquals(List.of("a", "b"), out.texts().stream().sorted().toList());
  }

  /**
   * A key holding half a character (an id cut inside an emoji) is one DynamoDB cannot carry: its
   * record fails alone, saying so, as one too long does; the in-memory store refuses it as DynamoDB
   * does, where it took it before.
   */
  @Test
  void aKeyHoldingHalfACharacterFailsOnlyItsRecord() {
    key = s -> s.startsWith("bad") ? s + "\uD83D" : s;
    BatchResult result = run(SourceBatch.unordered("q"));
    assertEquals(List.of("bad"), result.failedOffsets(), result.toString());
    assertEquals(List.of("a", "b"), out.texts().stream().sorted().toList());
  }

  @Test
  void anOrderedShardStopsAtTheRefusedRecord() {
    BatchResult result = run(SourceBatch.ordered("q"));
    assertEquals(List.of("a"), out.texts(), result.toString());
    assertEquals(List.of("2"), result.failedOffsets(), result.toString());
  }
}
