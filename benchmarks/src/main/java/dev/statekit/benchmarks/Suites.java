package dev.statekit.benchmarks;

import dev.statekit.benchmarks.batch.BatchEngineSuite;
import dev.statekit.benchmarks.coldstart.ColdStartSuite;
import dev.statekit.benchmarks.cost.CostSuite;
import dev.statekit.benchmarks.operators.OperatorsSuite;
import dev.statekit.benchmarks.pipeline.PipelineCostSuite;
import dev.statekit.benchmarks.protocol.ProtocolSuite;
import dev.statekit.benchmarks.runtime.RuntimeCostSuite;
import dev.statekit.benchmarks.timers.TimersSuite;
import java.util.List;

/** Every suite the benchmarks jar knows, in the order {@code all} runs them. */
final class Suites {
  private Suites() {}

  static List<Suite> all() {
    return List.of(
        new OperatorsSuite(),
        new ProtocolSuite(),
        new RuntimeCostSuite(),
        new ColdStartSuite(),
        new PipelineCostSuite(),
        new BatchEngineSuite(),
        new CostSuite(),
        new TimersSuite());
  }
}
