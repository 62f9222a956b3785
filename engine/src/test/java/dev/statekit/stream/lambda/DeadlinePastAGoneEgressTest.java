package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
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
 * A queue batch whose keyed pass stops at its deadline before a message that a key it took keeps
 * pending under an egress the deployment lacks. That message goes back alone (its kept result waits
 * for a deployment with the egress), found when the key is first met; the deadline then sends it
 * back a second time, with every message after the cut. Handing it back twice failed the batch
 * whole ("No record ... in the batch"), on every try that stopped there. Expected: the batch
 * applies what it took and answers the rest, the message among them, as failed.
 */
class DeadlinePastAGoneEgressTest {
  private static final String QUEUE = "orders-queue";
  private static final TypeName COUNTS = TypeName.of("test", "counts");
  private static final TypeName RENAMED = TypeName.of("test", "renamed");
  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());
  private static final int OTHERS = 40;

  private final ManualClock clock = new ManualClock(1_000_000);

  @Test
  void aMessageSentBackForAGoneEgressPastTheDeadlinesCutGoesBackOnce() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    List<EgressRecord> every = Collections.synchronizedList(new ArrayList<>());
    // m is applied to k1 and kept pending under egress counts: its delivery fails.
    assertThrows(
        IllegalStateException.class,
        () ->
            deploy(store, every::addAll, COUNTS, HotKeys.deliveriesFail(1)).process(queue("m=k1")));
    every.clear();

    // Renamed: a (k1) first, then slow messages of other keys, then m (k1) again.
    List<String> messages = new ArrayList<>();
    messages.add("a=k1");
    for (int i = 0; i < OTHERS; i++) {
      messages.add("b" + i + "=x" + i);
    }
    messages.add("m=k1");
    BatchResult r =
        deploy(store, every::addAll, RENAMED, BatchFaultHook.NONE)
            .process(queue(messages.toArray(String[]::new)), Deadline.after(Duration.ofSeconds(1)));

    assertTrue(r.failedOffsets().contains("m"), r.toString());
    assertTrue(r.applied() >= 1 && r.failedOffsets().size() < messages.size(), r.toString());
    assertEquals(messages.size() - r.applied(), r.failedOffsets().size(), r.toString());
  }

  private static SourceBatch queue(String... messages) {
    SourceBatch.Builder batch = SourceBatch.unordered(QUEUE);
    for (String message : messages) {
      String[] parts = message.split("=", 2); // id=key
      batch.add(parts[0], 1_000_000, parts[1].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  /** Each key counts its records, slowly but for k1; outputs "key:count". */
  private BatchPipeline deploy(
      InMemoryBatchStore store, EgressSink sink, TypeName egress, BatchFaultHook hook) {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8))
            .keyBy(k -> k)
            .<String>process(
                (record, context, out) -> {
                  if (!record.value().equals("k1")) {
                    DeadlineTries.slowly();
                  }
                  ValueState<Long> seen = context.state(SEEN);
                  long count = seen.value() == null ? 1 : seen.value() + 1;
                  seen.update(count);
                  out.collect(record.value() + ":" + count);
                },
                SEEN)
            .to(EgressOutput.to(sink, egress, Types.stringType()));
    BatchPipeline pipeline =
        BatchPipeline.builder("pairs", plan)
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .faultHook(hook)
            .build();
    pipeline.registerSplits(List.of(QUEUE));
    return pipeline;
  }
}
