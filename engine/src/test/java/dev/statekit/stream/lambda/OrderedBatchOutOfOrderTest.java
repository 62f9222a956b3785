package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An ordered batch takes its records in their sequence order: one out of order is refused when it
 * is added, naming the offsets. Before, a batch [2, 1] was taken, record 1 read as a repeat, never
 * applied nor reported failed, and the split's checkpoint moved past it: lost without a word.
 */
class OrderedBatchOutOfOrderTest {
  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());
  private final CollectingEgressSink sink = new CollectingEgressSink();

  private BatchPipeline counts() {
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .keyBy(text -> text.substring(0, 1))
            .<String>process(
                (record, context, out) -> {
                  ValueState<Long> seen = context.state(SEEN);
                  long n = seen.value() == null ? 1 : seen.value() + 1;
                  seen.update(n);
                  out.collect(record.value() + "#" + n);
                },
                SEEN)
            .to(EgressOutput.to(sink, TypeName.of("test", "counts"), Types.stringType()));
    return BatchPipeline.builder("counts", pipeline)
        .store(new InMemoryBatchStore())
        .clock(new ManualClock(1_000_000))
        .build();
  }

  private static SourceBatch batch(String... offsetAndText) {
    SourceBatch.Builder batch = SourceBatch.ordered("clicks/shardId-000000000000");
    for (int i = 0; i < offsetAndText.length; i += 2) {
      batch.add(offsetAndText[i], 0, offsetAndText[i + 1].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  @Test
  void anOutOfOrderBatchIsRefusedSayingSo() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> batch("2", "a2", "1", "a1"));
    assertTrue(e.getMessage().contains("1 follows 2"), e.getMessage());
    // The same record twice is a repeat Lambda may send: applied once.
    BatchPipeline pipeline = counts();
    BatchResult result = pipeline.process(batch("1", "a1", "1", "a1", "2", "a2"));
    assertTrue(result.succeeded(), result.toString());
    assertEquals(List.of("a1#1", "a2#2"), sink.texts());
  }
}
