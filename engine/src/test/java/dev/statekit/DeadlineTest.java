package dev.statekit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DeadlineTest {
  @Test
  void noDeadlineAlwaysLeavesTime() {
    assertTrue(Deadline.none().isUnlimited());
    assertTrue(Deadline.none().hasMoreThan(Duration.ofDays(365_000)));
  }

  @Test
  void aPassedDeadlineLeavesNothing() {
    Deadline passed = Deadline.after(Duration.ZERO);
    assertFalse(passed.hasMoreThan(Duration.ZERO));
    assertEquals(Duration.ZERO, passed.remaining());
  }

  @Test
  void anHourAheadLeavesMoreThanAMinute() {
    Deadline later = Deadline.after(Duration.ofHours(1));
    assertTrue(later.hasMoreThan(Duration.ofMinutes(1)));
    assertFalse(later.hasMoreThan(Duration.ofHours(2)));
  }

  @Test
  void aHugeRemainderDoesNotOverflow() {
    assertTrue(Deadline.after(Duration.ofSeconds(Long.MAX_VALUE)).hasMoreThan(Duration.ofDays(1)));
  }

  @Test
  void aNegativeRemainderIsRefused() {
    var e =
        assertThrows(IllegalArgumentException.class, () -> Deadline.after(Duration.ofMillis(-1)));
    assertTrue(e.getMessage().contains("Deadline.none()"), e.getMessage());
  }
}
