package dev.statekit.examples.fraud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.simulation.SeedRunner;
import dev.statekit.stream.lambda.simulation.Simulation;
import dev.statekit.stream.lambda.simulation.SimulationRuns;
import dev.statekit.stream.lambda.simulation.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fraud check pipeline among the simulated workloads: the same schedules, faults and invariants
 * as the kit's own ({@code Simulation}), a third of them over the fraud check.
 */
class FraudCheckSimulationTest {
  @Test
  void fraudCheckSchedulesKeepEveryInvariant() {
    SimulationRuns.check(
        workloads(),
        "FraudCheckSimulationTest#fraudCheckSchedulesKeepEveryInvariant",
        "examples",
        300);
  }

  /** The runs take seeds side by side ({@link SeedRunner}): each must come out as it does alone. */
  @Test
  void seedsRunSideBySideComeOutAsAlone() {
    List<Workload> workloads = workloads();
    assertEquals(
        List.of(),
        SeedRunner.differencesSideBySide(
            1,
            12,
            seed -> Simulation.run(seed, workloads),
            outcome -> outcome.violations() + "\n" + outcome.report()),
        "seeds whose outcome differed side by side");
  }

  private static List<Workload> workloads() {
    List<Workload> workloads = new ArrayList<>(Simulation.workloads());
    Workload fraud = new FraudCheckWorkload();
    // As many fraud check schedules as all the others together.
    for (int i = 0; i < Simulation.workloads().size(); i++) {
      workloads.add(fraud);
    }
    return workloads;
  }

  @Test
  void theSimulatedTransactionsRaiseAlerts() {
    FraudCheckWorkload fraud = new FraudCheckWorkload();
    int withAlerts = 0;
    for (long seed = 1; seed <= 50; seed++) {
      if (!fraud.expected(fraud.input(new Random(seed), 1_767_225_600_000L)).isEmpty()) {
        withAlerts++;
      }
    }
    assertTrue(withAlerts >= 25, "inputs with alerts to check: " + withAlerts + " of 50");
  }
}
