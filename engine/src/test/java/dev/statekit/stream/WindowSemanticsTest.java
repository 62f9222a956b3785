package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Window semantics docs/pipelines.md promises, as Flink has them. */
class WindowSemanticsTest {
  /**
   * A record whose own [t, t + gap) is behind the watermark but touches a session still open joins
   * it: it is late only when every window it belongs to has fired (Flink checks lateness on the
   * merged session). It was counted late.
   */
  @Test
  void aRecordTouchingAnOpenSessionJoinsItInsteadOfBeingLate() throws Exception {
    List<Record<Event>> input =
        List.of(
            Record.of(new Event("a", 100, 1)), // opens a's session [100, 110)
            Record.of(new Event("b", 106, 1)), // poll 1 ends: watermark 105, a's session open
            Record.of(new Event("a", 95, 1)), // [95, 105) is behind 105 but touches [100, 110)
            Record.of(new Event("b", 107, 1)));
    CollectingSink<String> out = Sinks.collecting();
    CollectingSink<Event> late = Sinks.collecting();
    PipelineResult result =
        Pipeline.from(Sources.fromRecords(input, 2))
            .withWatermarks(
                WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ZERO)
                    .withTimestamps(Event::time))
            .keyBy(Event::key, 1)
            .window(Windows.session(Duration.ofMillis(10)))
            .lateRecordsTo(late)
            .aggregate(
                AggregateFunction.count(),
                dev.statekit.stream.serde.Serdes.auto(),
                (String key, TimeWindow w, Long n) -> key + w + "=" + n)
            .to(out)
            .run(RunOptions.named("session-late").build());
    assertEquals(List.of(), late.values(), "late records");
    assertEquals(0, result.lateRecords());
    assertEquals(
        List.of("a" + new TimeWindow(95, 110) + "=2", "b" + new TimeWindow(106, 117) + "=2"),
        out.values().stream().sorted().toList());
  }

  /**
   * A window fires when the watermark passes its end, and only withWatermarks makes watermarks: a
   * window without it is refused when the pipeline is planned. It ran, and ended with every
   * window's result silently unsent.
   */
  @Test
  void aWindowWithoutWatermarksIsRefusedSayingWhatToCall() {
    List<Record<Event>> input = List.of(Record.of(new Event("a", 100, 1), 100));
    CollectingSink<Long> out = Sinks.collecting();
    Pipeline pipeline =
        Pipeline.from(Sources.fromRecords(input, 10))
            .keyBy(Event::key, 1)
            .window(Windows.tumbling(Duration.ofMillis(1000)))
            .aggregate(AggregateFunction.count())
            .to(out);
    Exception refused =
        assertThrows(
            Exception.class, () -> pipeline.run(RunOptions.named("no-watermarks").build()));
    assertTrue(refused.getMessage().contains("withWatermarks("), refused.getMessage());
  }
}
