package dev.statekit.benchmarks.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The protocol suite's JVM per side: each fork times rounds on command and reports its CPU. */
class SideForkTest {
  @Test
  void eachSideIsTimedInAJvmOfItsOwn() throws Exception {
    for (Side side : Side.values()) {
      long checksum;
      try (SideFork fork = SideFork.start(side, 10)) {
        for (int round = 0; round < 3; round++) {
          Round timed = fork.round(20_000_000L);
          assertTrue(timed.rate() > 0, side + " rate " + timed.rate());
          assertTrue(
              timed.cpuNanos() > 0 && Double.isFinite(timed.cpuNanos()),
              side + " CPU per invocation " + timed.cpuNanos());
        }
        fork.close();
        checksum = fork.checksum();
      }
      // The answers were made and summed in the fork, not skipped.
      assertTrue(checksum > 0, side + " checksum " + checksum);
    }
  }

  @Test
  void anUnknownOptionNamesTheKnownOnes() {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> new ProtocolSuite().options(List.of("--fork")));

    assertEquals("protocol takes --same-jvm and --sdk-first, got '--fork'", e.getMessage());
  }
}
