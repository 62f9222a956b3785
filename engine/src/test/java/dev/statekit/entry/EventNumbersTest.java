package dev.statekit.entry;

import static dev.statekit.entry.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.event.BatchOutcome;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, case 3: every number read from an event is parsed with bounds. A timestamp with a huge
 * exponent used to be read as a BigDecimal and turned into a whole number, which takes seconds for
 * {@code 1e10000000} and longer than Lambda's 15 minutes for a longer exponent; now it is refused
 * as soon as it is read. The time allowed is far above what a refusal takes, even on a busy
 * machine, and far below what reading such a number takes.
 */
class EventNumbersTest {
  private static final Duration AT_ONCE = Duration.ofSeconds(10);

  private final EntryPoint entry =
      EntryPoint.builder()
          .kinesisStream("clicks", records -> BatchOutcome.allSucceeded())
          .dynamoDbStream("orders", records -> BatchOutcome.allSucceeded())
          .build();

  @BeforeEach
  void loadTheReaders() {
    // Class loading is not what is timed.
    entry.invoke(Events.kinesis("clicks", "1"));
    entry.invoke(Events.dynamoDb("orders"));
  }

  @Test
  void aTimestampWithAHugeExponentIsRefusedAtOnce() {
    // The 12 bytes, then a longer exponent as a JSON number.
    for (String timestamp : new String[] {"\"1e10000000\"", "1e999999999"}) {
      byte[] event =
          utf8(new String(Events.kinesis("clicks", "1")).replace("1700000000.25", timestamp));

      MalformedEventException e =
          assertTimeoutPreemptively(
              AT_ONCE,
              () -> assertThrows(MalformedEventException.class, () -> entry.invoke(event)));
      assertTrue(e.getMessage().contains("approximateArrivalTimestamp"), e.getMessage());
    }
  }

  @Test
  void aCreationTimeWithAHugeExponentIsRefusedAtOnce() {
    byte[] event =
        utf8(new String(Events.dynamoDb("orders")).replace("1700000000", "\"9e999999999\""));

    MalformedEventException e =
        assertTimeoutPreemptively(
            AT_ONCE, () -> assertThrows(MalformedEventException.class, () -> entry.invoke(event)));
    assertTrue(e.getMessage().contains("ApproximateCreationDateTime"), e.getMessage());
  }
}
