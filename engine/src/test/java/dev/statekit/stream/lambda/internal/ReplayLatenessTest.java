package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.stream.lambda.Attempt;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What a replayed record is late against: the windows an attempt of its range may have fired before
 * the record's own batch ran, up to that attempt's watermark.
 */
class ReplayLatenessTest {
  private static final long LATENESS = 1_000;

  private static long latenessOf(String offset, Attempt... attempts) {
    BatchContext context =
        new BatchContext(
            "p",
            null,
            null,
            null,
            "s",
            true,
            false,
            null,
            Set.of(),
            LATENESS,
            Long.MIN_VALUE,
            Long.MIN_VALUE,
            Map.of(),
            List.of(),
            null,
            (split, id) -> false,
            0,
            List.of(attempts));
    return context.latenessOf(offset);
  }

  @Test
  void anAttemptOfEarlierRecordsMakesLaterOnesLate() {
    assertEquals(5_000, latenessOf("30", new Attempt("10", "20", 100, 5_000)));
  }

  @Test
  void inOrderAnAttemptOfLaterRecordsMadeAfterTheRecordWasTriedDoesNot() {
    // One batch at a time: the later batch ran after the record's, behind the range's hold.
    assertEquals(
        LATENESS,
        latenessOf("15", new Attempt("10", "20", 100, 2_000), new Attempt("30", "40", 200, 9_000)));
  }

  /**
   * Batches of one shard interleaving (ParallelizationFactor 2): the batch of records 30 to 40 ran
   * and fired windows before the batch holding record 15 was first tried.
   */
  @Test
  void anAttemptOfLaterRecordsMadeBeforeTheRecordWasFirstTriedMakesItLate() {
    assertEquals(
        9_000,
        latenessOf("15", new Attempt("30", "40", 100, 9_000), new Attempt("10", "20", 200, 2_000)));
  }

  @Test
  void aRecordNoAttemptCoveredIsLateOnlyAgainstAttemptsBeforeIt() {
    assertEquals(
        3_000,
        latenessOf("25", new Attempt("10", "20", 100, 3_000), new Attempt("30", "40", 50, 9_000)));
  }
}
