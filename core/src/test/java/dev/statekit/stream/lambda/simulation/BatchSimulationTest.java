package dev.statekit.stream.lambda.simulation;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the deterministic simulation over many seeds: {@code -Dsimulation.seeds=N} schedules from
 * {@code -Dsimulation.first=F} (2,000 from 1 by default), or the one of {@code
 * -Dsimulation.seed=S}. A failing seed prints its schedule and trace and the command that runs it
 * alone.
 */
class BatchSimulationTest {
  /** Seeds that once broke an invariant, kept as regressions. */
  static final long[] FOUND = {};

  @Test
  void schedulesKeepEveryInvariant() {
    SimulationRuns.check(Simulation.workloads(), "BatchSimulationTest", "core", 2000);
  }

  @Test
  void seedsThatFoundDefectsStayFixed() {
    List<String> broken = new ArrayList<>();
    for (long seed : FOUND) {
      Simulation.Outcome outcome = Simulation.run(seed, Simulation.workloads());
      if (!outcome.ok()) {
        broken.add(outcome.violations() + "\n" + outcome.report());
      }
    }
    if (!broken.isEmpty()) {
      fail(String.join("\n\n", broken));
    }
  }
}
