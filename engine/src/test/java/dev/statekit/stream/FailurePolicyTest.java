package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** A process function that throws on multiples of 7, under each failure policy. */
class FailurePolicyTest {
  private static final List<Long> INPUT = LongStream.range(1, 50).boxed().toList();

  private static final ProcessFunction<Long, Long> FLAKY =
      (record, out) -> {
        out.collect(record.value() * 100); // collected before the failure: must not leak out
        if (record.value() % 7 == 0) {
          throw new IllegalStateException("no multiples of 7: " + record.value());
        }
        out.collect(record.value());
      };

  private static List<Long> survivors() {
    return INPUT.stream()
        .filter(v -> v % 7 != 0)
        .flatMap(v -> List.of(v * 100, v).stream())
        .toList();
  }

  @Test
  void dropSkipsFailedRecordsAndCountsThem() throws Exception {
    CollectingSink<Long> sink = Sinks.collecting();
    PipelineResult result =
        Pipeline.from(Sources.fromList(INPUT))
            .process("flaky", FLAKY, FailurePolicy.drop())
            .to(sink)
            .run(RunOptions.named("drop").build());
    assertEquals(survivors(), sink.values());
    assertEquals(7, result.droppedRecords());
  }

  @Test
  void deadLetterSinkReceivesEachFailedRecordWithItsError() throws Exception {
    CollectingSink<Long> sink = Sinks.collecting();
    CollectingSink<DeadLetter<Long>> dead = Sinks.collecting();
    PipelineResult result =
        Pipeline.from(Sources.fromList(INPUT))
            .keyBy(v -> v % 3, 2)
            .reduce((a, b) -> b)
            .process("flaky", FLAKY, FailurePolicy.deadLetter(dead))
            .to(sink)
            .run(RunOptions.named("dead").build());
    assertEquals(survivors().stream().sorted().toList(), sink.values().stream().sorted().toList());
    assertEquals(7, result.deadLetters());
    List<DeadLetter<Long>> letters =
        dead.values().stream()
            .sorted((a, b) -> Long.compare(a.record().value(), b.record().value()))
            .toList();
    assertEquals(
        List.of(7L, 14L, 21L, 28L, 35L, 42L, 49L),
        letters.stream().map(l -> l.record().value()).toList());
    for (DeadLetter<Long> letter : letters) {
      assertInstanceOf(IllegalStateException.class, letter.error());
      assertEquals("no multiples of 7: " + letter.record().value(), letter.error().getMessage());
      assertEquals("flaky", letter.operator());
      assertEquals(letter.record().value() % 3, letter.record().key(), "the record keeps its key");
    }
  }

  @Test
  void failStopsThePipelineWithTheRecordAndTheError() {
    CollectingSink<Long> sink = Sinks.collecting();
    PipelineFailedException e =
        assertThrows(
            PipelineFailedException.class,
            () ->
                Pipeline.from(Sources.fromList(INPUT))
                    .process("flaky", FLAKY, FailurePolicy.fail())
                    .to(sink)
                    .run(RunOptions.named("fail").build()));
    assertTrue(
        e.getMessage().contains("'flaky' failed on Record{key=null, value=7"), e.getMessage());
    assertInstanceOf(IllegalStateException.class, e.getCause().getCause());
    assertEquals(List.of(), sink.values(), "nothing was committed: no checkpoint completed");
  }

  /**
   * A map, filter, flatMap or decode that throws fails the run naming the operator and the record,
   * as a process stage's fail() does: the error said only what the function threw, not where.
   */
  @Test
  void aDecodeThatFailsNamesTheOperatorAndTheRecord() {
    List<byte[]> input =
        List.of(
            "{\"user\":\"a\",\"time\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            "not json".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    PipelineFailedException e =
        assertThrows(
            PipelineFailedException.class,
            () ->
                Pipeline.from(Sources.fromList(input))
                    .decode(dev.statekit.stream.serde.Serdes.json(Click.class))
                    .keyBy(Click::user, 1)
                    .reduce((a, b) -> b)
                    .to(Sinks.collecting())
                    .run(RunOptions.named("malformed").build()));
    assertTrue(e.getMessage().contains("Operator 'decode' failed on Record{"), e.getMessage());
    assertTrue(e.getMessage().contains("at=generator@1}"), e.getMessage());
  }

  @Test
  void aMapFilterOrFlatMapThatThrowsNamesItsLabel() {
    for (Pipeline pipeline :
        List.of(
            Pipeline.from(Sources.fromList(INPUT))
                .map("halve", v -> 10 / (v - 7))
                .to(Sinks.collecting()),
            Pipeline.from(Sources.fromList(INPUT))
                .filter("odd", v -> 10 / (v - 7) > 0)
                .to(Sinks.collecting()),
            Pipeline.from(Sources.fromList(INPUT))
                .flatMap("twice", (Long v, Collector<Long> out) -> out.collect(10 / (v - 7)))
                .to(Sinks.collecting()))) {
      PipelineFailedException e =
          assertThrows(
              PipelineFailedException.class, () -> pipeline.run(RunOptions.named("x").build()));
      assertTrue(e.getMessage().contains("failed on Record{key=null, value=7"), e.getMessage());
      assertInstanceOf(ArithmeticException.class, e.getCause().getCause());
    }
  }

  /** An Error the function throws (an assertion, a class missing) is the function's failure too. */
  @Test
  void aMapFailingWithAnAssertionErrorNamesItsLabelAndRecord() {
    Pipeline pipeline =
        Pipeline.from(Sources.fromList(List.of(1L, 2L, 3L)))
            .map(
                "check",
                v -> {
                  if (v == 2L) {
                    throw new AssertionError("v must not be 2");
                  }
                  return v;
                })
            .to(Sinks.collecting());
    PipelineFailedException e =
        assertThrows(
            PipelineFailedException.class, () -> pipeline.run(RunOptions.named("assert").build()));
    assertTrue(
        e.getMessage().contains("Operator 'check' failed on Record{key=null, value=2"),
        e.getMessage());
  }

  /**
   * A process function recursing on a deep input overflows its stack: the record is dead-lettered
   * with that error as any failure of the function is, and the run goes on (the StackOverflowError
   * escaped the policy and failed the run).
   */
  @Test
  void aStackOverflowInTheFunctionIsDeadLetteredToo() throws Exception {
    CollectingSink<Long> sink = Sinks.collecting();
    CollectingSink<DeadLetter<Long>> dead = Sinks.collecting();
    PipelineResult result =
        Pipeline.from(Sources.fromList(List.of(1L, 7L, 3L)))
            .process(
                "deep",
                (Record<Long> record, Collector<Long> out) ->
                    out.collect(record.value() == 7L ? deeper(0) : record.value()),
                FailurePolicy.deadLetter(dead))
            .to(sink)
            .run(RunOptions.named("overflow").build());
    assertEquals(List.of(1L, 3L), sink.values());
    assertEquals(1, result.deadLetters());
    assertInstanceOf(StackOverflowError.class, dead.values().get(0).error());
  }

  private static long deeper(long depth) {
    return deeper(depth + 1) + 1;
  }

  record Click(String user, long time) {}
}
