package dev.statekit.stream.lambda.simulation;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Queue messages keyed to two keys each (a flatMap then keyBy), through the deterministic
 * simulator: one key's write may conflict while the other's lands, and a copy of the message may
 * write its receipt in between (the conflict path's "receipted meanwhile"). The workloads of {@link
 * Simulation#workloads} key each message to one key only.
 */
class PairSumsSimulationTest {
  private static final List<Workload> PAIRS =
      List.of(
          new PairSums(Workload.Source.QUEUE),
          new PairSums(Workload.Source.FIFO_QUEUE),
          new PairSums(Workload.Source.QUEUE, true),
          new PairSums(Workload.Source.FIFO_QUEUE, true));

  @Test
  void pairsKeepEveryInvariant() {
    SimulationRuns.check(PAIRS, "PairSumsSimulationTest#pairsKeepEveryInvariant", "aws", 300);
  }

  @Test
  void pairsOnSharedInstancesKeepEveryInvariant() {
    SimulationRuns.check(
        PAIRS, "PairSumsSimulationTest#pairsOnSharedInstancesKeepEveryInvariant", "aws", 300, true);
  }
}
