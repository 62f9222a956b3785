package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Session windows refuse, when the pipeline is built, an aggregate that cannot merge. */
class SessionMergeRequiredTest {
  /** Sums, but never says how two sums combine. */
  static final class SumWithoutMerge implements AggregateFunction<Long, Long, Long> {
    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(Long value, Long accumulator) {
      return accumulator + value;
    }

    @Override
    public Long result(Long accumulator) {
      return accumulator;
    }
  }

  private static WindowedStream<Long, Long> windowed(Windows windows) {
    return Pipeline.from(Sources.fromList(List.of(1L, 2L, 3L)))
        .withWatermarks(
            WatermarkStrategy.<Long>boundedOutOfOrderness(Duration.ZERO).withTimestamps(v -> v))
        .keyBy(v -> v % 2, 1)
        .window(windows);
  }

  @Test
  void sessionsRefuseAnAggregateWithoutMerge() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                windowed(Windows.session(Duration.ofSeconds(1))).aggregate(new SumWithoutMerge()));
    assertTrue(refused.getMessage().contains("SumWithoutMerge"), refused.getMessage());
    assertTrue(refused.getMessage().contains("implement it"), refused.getMessage());
  }

  @Test
  void otherWindowsAndMergingAggregatesAreAccepted() {
    assertDoesNotThrow(
        () -> windowed(Windows.tumbling(Duration.ofSeconds(1))).aggregate(new SumWithoutMerge()));
    assertDoesNotThrow(
        () ->
            windowed(Windows.session(Duration.ofSeconds(1))).aggregate(AggregateFunction.count()));
  }
}
