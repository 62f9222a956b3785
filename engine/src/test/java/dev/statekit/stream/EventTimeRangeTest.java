package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Event times are taken within 2^62 ms of the epoch, and window sizes, gaps and bounds up to 2^61
 * ms, so that no watermark or window end overflows. Before, one record at {@code Long.MIN_VALUE +
 * 1} wrapped the watermark to about {@code Long.MAX_VALUE}: every window fired at once and every
 * later record of the run was late, silently; a record near {@code Long.MAX_VALUE} failed with "A
 * window ends after it starts", and an extractor returning {@code Long.MIN_VALUE} was told to call
 * withWatermarks. Now such a record is refused by name, saying what to do.
 */
class EventTimeRangeTest {
  private static List<String> sessions(long... times) throws Exception {
    List<Record<Event>> input =
        java.util.Arrays.stream(times).mapToObj(t -> Record.of(new Event("k", t, 1))).toList();
    CollectingSink<String> out = Sinks.collecting();
    Pipeline.from(Sources.fromRecords(input, 1))
        .withWatermarks(
            WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(200))
                .withTimestamps(Event::time))
        .keyBy(Event::key, 1)
        .window(Windows.session(Duration.ofMillis(10)))
        .aggregate(
            AggregateFunction.count(),
            dev.statekit.stream.serde.Serdes.longs(),
            (String key, TimeWindow w, Long n) -> "[" + w.start() + "," + w.end() + ")=" + n)
        .to(out)
        .run(RunOptions.named("event-time").build());
    return out.values();
  }

  private static void refused(long time) {
    PipelineFailedException e =
        assertThrows(PipelineFailedException.class, () -> sessions(1000, time, 1005));
    assertTrue(e.getMessage().contains("has event time " + time), e.getMessage());
    assertTrue(e.getMessage().contains("before withWatermarks"), e.getMessage());
  }

  @Test
  void aTimeNearEitherEndOfLongIsRefusedByName() {
    refused(Long.MIN_VALUE + 1);
    refused(Long.MIN_VALUE); // what an extractor returns for "no time"
    refused(Long.MAX_VALUE - 5);
    refused((1L << 62) + 1);
  }

  @Test
  void timesAtTheEndsOfTheRangeKeepTheirWindows() throws Exception {
    long max = 1L << 62;
    long min = -(1L << 62);
    assertEquals(List.of("[" + max + "," + (max + 10) + ")=1"), sessions(max));
    assertEquals(
        List.of("[" + min + "," + (min + 15) + ")=2", "[1000,1010)=1"),
        sessions(min, min + 5, 1000));
  }

  @Test
  void spansPastTheRangeAreRefusedWhenDeclared() {
    Duration huge = Duration.ofMillis((1L << 61) + 1);
    for (Runnable declare :
        List.<Runnable>of(
            () -> Windows.tumbling(huge),
            () -> Windows.sliding(huge, Duration.ofMillis(1)),
            () -> Windows.session(huge),
            () -> WatermarkStrategy.boundedOutOfOrderness(huge),
            () -> Windows.session(java.time.temporal.ChronoUnit.FOREVER.getDuration()))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, declare::run);
      assertTrue(e.getMessage().contains("at most 2^61 ms"), e.getMessage());
    }
  }
}
