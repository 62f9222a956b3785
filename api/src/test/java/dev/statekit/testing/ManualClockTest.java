package dev.statekit.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ManualClockTest {
  @Test
  void movesOnlyWhenAdvanced() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    assertEquals(Instant.parse("2026-01-01T00:00:00Z"), clock.instant());

    clock.advance(Duration.ofMinutes(90));

    assertEquals(Instant.parse("2026-01-01T01:30:00Z"), clock.instant());
    assertEquals(clock.instant().toEpochMilli(), clock.millis());
  }

  @Test
  void refusesToGoBack() {
    ManualClock clock = new ManualClock(1_000);
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> clock.advance(Duration.ofMillis(-1)));
    assertEquals("A clock moves forward only, not by PT-0.001S", refused.getMessage());
    assertEquals(1_000, clock.millis());
  }
}
