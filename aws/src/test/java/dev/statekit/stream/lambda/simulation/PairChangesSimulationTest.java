package dev.statekit.stream.lambda.simulation;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DynamoDB Streams records keyed to two keys each (PairSums on the CHANGES source: in order per
 * item, retried from the lowest failed sequence number, batches given up after MaximumRetryAttempts
 * and handed over once more as the on-failure destination names them), with and without a failure
 * in the keyed stage of a record's second part; crashes at every step may leave one key written and
 * the other not. PairSumsSimulationTest runs the queues only.
 */
class PairChangesSimulationTest {
  private static final List<Workload> PAIRS =
      List.of(new PairSums(Workload.Source.CHANGES), new PairSums(Workload.Source.CHANGES, true));

  @Test
  void changePairsKeepEveryInvariant() {
    SimulationRuns.check(
        PAIRS, "PairChangesSimulationTest#changePairsKeepEveryInvariant", "aws", 300);
  }

  @Test
  void changePairsOnSharedInstancesKeepEveryInvariant() {
    SimulationRuns.check(
        PAIRS,
        "PairChangesSimulationTest#changePairsOnSharedInstancesKeepEveryInvariant",
        "aws",
        300,
        true);
  }
}
