package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fourth review of the deferred outputs ({@link DeferredMessage}): a deferred message's receipt
 * names its outputs by egress, and a deployment may lack one (its egress renamed or removed, say to
 * route around the sink that went down). A message handed over again whose receipt names such an
 * output goes back alone ({@code BatchRecords}); but the drain of the deferred messages let the
 * error (an {@code IllegalStateException}) escape. The tick then failed before it fired any window
 * and before it drained the other queues, for as long as the receipt is kept (14 days past the
 * retention): every window of the pipeline held back. And every batch of the queue's order groups
 * failed with nothing applied, since it drains the split's first page before its own outputs.
 */
class DeferredOutputsOfAMissingOutputTest {
  private final DeferredFixture fixture = new DeferredFixture();

  /**
   * A FIFO group's m-1 is deferred (the sink down); the next deployment names the output's egress
   * otherwise. m-2 of the group must wait behind m-1's output (as behind a record the sink
   * refuses), not fail with nothing applied on every receive.
   */
  @Test
  void aBatchOfAGroupBehindAnOutputTheDeploymentLacksWaitsBehindIt() {
    BatchPipeline before = fixture.pipeline(fixture.memory);
    fixture.sink.down();
    assertTrue(before.process(DeferredFixture.messages(1, "g", "a")).succeeded());
    assertEquals(List.of("m-1"), fixture.deferredIds());
    fixture.sink.up();

    BatchPipeline renamed =
        fixture
            .builder(
                Pipeline.from(BatchSource.records())
                    .map(bytes -> new String(bytes, StandardCharsets.UTF_8) + ":1")
                    .keyBy(value -> value.split(":")[0])
                    .reduce((x, y) -> y, Serdes.string())
                    .to(
                        EgressOutput.to(
                            fixture.sink, TypeName.of("test", "counts-v2"), Types.stringType())),
                fixture.memory)
            .build();
    BatchResult result;
    try {
      result = renamed.process(DeferredFixture.messages(2, "g", "b"));
    } catch (RuntimeException e) {
      throw new AssertionError(
          "the batch of group g failed with nothing applied (and will on every receive, until"
              + " m-1's receipt expires 14 days past the retention): "
              + e,
          e);
    }
    assertTrue(result.succeeded(), result.toString());
    assertEquals(List.of("m-1", "m-2"), fixture.deferredIds(), "m-2's output waits behind m-1's");
    assertEquals(List.of(), fixture.delivered, "nothing of the group ahead of m-1's output");
  }

  /** Per key, 10 ms windows counted to {@code results}; late records to {@code late}, if given. */
  private BatchPipeline windowed(
      CollectingEgressSink results, dev.statekit.egress.EgressSink late) {
    return BatchPipeline.builder(
            "windows",
            WindowedCounts.plan(java.util.function.UnaryOperator.identity(), results, late))
        .store(fixture.memory)
        .clock(fixture.clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }

  private static SourceBatch queue(String... idText) {
    return WindowedCounts.queue("orders", idText);
  }

  /**
   * A late record's output is deferred (the late records' sink down); the next deployment drops the
   * late records' output. Its tick must still fire the windows due, and may then report the output
   * it cannot deliver.
   */
  @Test
  void theTickFiresTheWindowsDueThoughADeferredOutputNamesAnOutputTheDeploymentLacks() {
    CollectingEgressSink results = new CollectingEgressSink();
    FlakySink late = new FlakySink(records -> {});
    BatchPipeline before = windowed(results, late);
    assertTrue(before.process(queue("o1", "a,5", "o2", "b,100")).succeeded());
    fixture.clock.advance(Duration.ofMinutes(3));
    before.tick();
    assertEquals(List.of("a@0=1"), results.texts());

    late.down();
    assertTrue(
        before.process(queue("o3", "a,6")).succeeded(), "a late record, its output deferred");
    assertEquals(
        List.of("o3"),
        fixture.memory.deferred("windows", "orders", 10).stream()
            .map(DeferredMessage::message)
            .toList());
    assertTrue(before.process(queue("o4", "c,200")).succeeded());
    fixture.clock.advance(Duration.ofMinutes(3));

    BatchPipeline after = windowed(results, null);
    try {
      after.tick();
    } catch (RuntimeException e) {
      // Reporting what cannot go out is fine, once the windows fired.
    }
    assertEquals(
        List.of("a@0=1", "b@100=1"),
        results.texts(),
        "the window due at b,100 did not fire: the tick failed on o3's deferred late record, whose"
            + " output this deployment lacks, before it fired any window");
    assertThrows(RuntimeException.class, after::tick, "o3's output still waits, and the tick says");
  }
}
