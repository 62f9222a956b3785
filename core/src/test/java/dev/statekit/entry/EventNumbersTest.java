package dev.statekit.entry;

import static dev.statekit.entry.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 12, case 3: every number read from an event is parsed with bounds. */
class EventNumbersTest {
  private final EntryPoint entry =
      EntryPoint.builder()
          .kinesisStream("clicks", records -> BatchOutcome.allSucceeded())
          .dynamoDbStream("orders", records -> BatchOutcome.allSucceeded())
          .build();

  @Test
  void aTimestampWithAHugeExponentIsRefusedAtOnce() {
    byte[] event =
        utf8(new String(Events.kinesis("clicks", "1")).replace("1700000000.25", "\"1e10000000\""));

    IllegalArgumentException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(1),
            () -> assertThrows(IllegalArgumentException.class, () -> entry.invoke(event)));
    assertTrue(e.getMessage().contains("approximateArrivalTimestamp"), e.getMessage());
  }

  @Test
  void aCreationTimeWithAHugeExponentIsRefusedAtOnce() {
    byte[] event =
        utf8(new String(Events.dynamoDb("orders")).replace("1700000000", "\"9e999999999\""));

    IllegalArgumentException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(1),
            () -> assertThrows(IllegalArgumentException.class, () -> entry.invoke(event)));
    assertTrue(e.getMessage().contains("ApproximateCreationDateTime"), e.getMessage());
  }
}
