package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Third review of the deferred outputs ({@link DeferredMessage}): the stateless stages' outputs,
 * delivered before any key is written, against the deferred outputs of earlier messages of their
 * order group; a message that fails in the keyed stage beside deferred ones.
 */
class DeferredOutputsThirdReviewTest {
  private final DeferredFixture fixture = new DeferredFixture();

  /** Counts per key; a message "bad..." is a dead letter of the stateless stage, to the sink. */
  private Pipeline withDeadLetters() {
    return withDeadLetters(fixture.sink);
  }

  /** As above, the dead letters to {@code deadLetters}. */
  private Pipeline withDeadLetters(dev.statekit.egress.EgressSink deadLetters) {
    return DeferredFixture.countsWithDeadLetters(deadLetters, fixture.sink);
  }

  /**
   * A FIFO group's m-1 is applied while the sink is down (its output deferred); the sink is back
   * when m-2 of the group comes, a dead letter of the stateless stage. The group's outputs go out
   * in its order: m-1's count before m-2's dead letter. The batch delivers its stateless outputs
   * before its key writes, and so before it drains the deferred ones of the messages before it.
   */
  @Test
  void aDeadLetterOfALaterMessageOfTheGroupGoesAfterTheDeferredOutputsBeforeIt() {
    BatchPipeline pipeline = fixture.builder(withDeadLetters(), fixture.memory).build();
    fixture.sink.down();
    assertTrue(pipeline.process(DeferredFixture.messages(1, "g", "a")).succeeded());
    assertEquals(List.of("m-1"), fixture.deferredIds());
    fixture.sink.up();
    assertTrue(pipeline.process(DeferredFixture.messages(2, "g", "bad")).succeeded());
    assertEquals(List.of("a:1", "dead:bad"), fixture.delivered, "the group's outputs in order");
  }

  /**
   * As above, with the dead letters' sink up and the counts' still down when m-2 comes: the batch
   * cannot put its dead letter behind m-1's count (nothing keeps a stateless output), so it comes
   * again with nothing applied, and the group's order holds once the counts' sink is back.
   */
  @Test
  void aBatchBehindDeferredOutputsWithAStatelessOutputWaitsWhole() {
    List<String> deadLetters = new java.util.ArrayList<>();
    BatchPipeline pipeline =
        fixture
            .builder(
                withDeadLetters(
                    records ->
                        records.forEach(
                            r -> deadLetters.add(fixture.delivered.size() + r.textOrBase64()))),
                fixture.memory)
            .build();
    fixture.sink.down();
    assertTrue(pipeline.process(DeferredFixture.messages(1, "g", "a")).succeeded());

    assertThrows(
        dev.statekit.egress.EgressException.class,
        () -> pipeline.process(DeferredFixture.messages(2, "g", "bad")));
    assertEquals(List.of(), deadLetters, "not ahead of m-1's count");

    fixture.sink.up();
    assertTrue(pipeline.process(DeferredFixture.messages(2, "g", "bad")).succeeded());
    assertEquals(List.of("a:1"), fixture.delivered);
    assertEquals(List.of("1dead:bad"), deadLetters, "after the one count delivered before it");
  }

  /**
   * Group g: m-2 (key a) applied, m-3 (key x) fails in the keyed stage, m-4 (key a) is held back
   * behind it; the sink is down. Only m-2 is deferred and answered done; m-3 and m-4 go back.
   */
  @Test
  void aKeyedFailureBesideDeferredOnesHandsBackTheMessagesHeldBehindIt() {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8) + ":1")
            .keyBy(value -> value.split(":")[0])
            .reduce(
                (a, b) -> {
                  if (a.startsWith("x")) {
                    throw new IllegalStateException("x fails once seen");
                  }
                  return a.split(":")[0]
                      + ":"
                      + (Long.parseLong(a.split(":")[1]) + Long.parseLong(b.split(":")[1]));
                },
                Serdes.string())
            .to(EgressOutput.to(fixture.sink, TypeName.of("test", "counts"), Types.stringType()));
    BatchPipeline pipeline = fixture.builder(plan, fixture.memory).build();
    assertTrue(pipeline.process(DeferredFixture.messages(1, "h", "x")).succeeded());
    fixture.sink.down();
    BatchResult result = pipeline.process(DeferredFixture.messages(2, "g", "a", "x", "a"));
    assertEquals(List.of("m-3", "m-4"), result.failedOffsets());
    assertEquals(List.of("m-2"), fixture.deferredIds());
    fixture.sink.up();
    pipeline.tick();
    assertEquals(List.of("x:1", "a:1"), fixture.delivered);
  }
}
