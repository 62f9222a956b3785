package dev.statekit.local.emulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.local.template.EventSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Schedules fire locally as EventBridge fires them: a schedule the template disables ({@code State:
 * DISABLED}) does not fire, and a rate EventBridge refuses is refused with the reason. Before, a
 * disabled schedule fired, and {@code rate(0 minutes)} fired in a tight loop.
 */
class ScheduleSettingsTest {
  private static EventSource schedule(String properties) throws Exception {
    return new EventSource("Tick", "Schedule", new ObjectMapper().readTree(properties));
  }

  @Test
  void aDisabledScheduleIsSwitchedOff() throws Exception {
    assertFalse(schedule("{\"Schedule\":\"rate(1 minute)\",\"State\":\"DISABLED\"}").enabled());
    assertFalse(schedule("{\"Schedule\":\"rate(1 minute)\",\"Enabled\":false}").enabled());
    assertTrue(schedule("{\"Schedule\":\"rate(1 minute)\",\"State\":\"ENABLED\"}").enabled());
    assertTrue(schedule("{\"Schedule\":\"rate(1 minute)\"}").enabled());
  }

  @Test
  void aRateBelowOneIsRefusedSayingSo() {
    for (String rate : new String[] {"rate(0 minutes)", "rate(99999999999999999999 days)"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ScheduleTicker.rate(rate));
      assertTrue(e.getMessage().contains("rate is 1 or more"), e.getMessage());
    }
    assertEquals(Duration.ofMinutes(1), ScheduleTicker.rate("rate(1 minute)"));
    assertEquals(Duration.ofHours(2), ScheduleTicker.rate("rate(2 hours)"));
  }

  /**
   * EventBridge takes a singular unit for a rate of 1 and a plural one above: {@code rate(1
   * minutes)} and {@code rate(5 minute)} are refused when the stack is deployed. Locally both
   * fired, so a template that works here fails to deploy.
   */
  @Test
  void aRateWhoseUnitDisagreesWithItsValueIsRefused() {
    for (String rate :
        new String[] {"rate(1 minutes)", "rate(5 minute)", "rate(2 hour)", "rate(1 days)"}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> ScheduleTicker.rate(rate),
              rate + " is refused by EventBridge");
      assertTrue(e.getMessage().contains(rate), e.getMessage());
    }
    assertEquals(Duration.ofDays(1), ScheduleTicker.rate("rate(1 day)"));
    assertEquals(Duration.ofMinutes(5), ScheduleTicker.rate("rate(5 minutes)"));
  }
}
