package dev.statekit.runtime.simulation;

import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An egress sink that keeps one record per id (a table, a FIFO queue within its window) and counts
 * how often each id was delivered; it refuses while down, and sometimes takes records but fails to
 * answer.
 */
final class SimSink implements EgressSink {
  private final Simulation sim;
  final Map<String, EgressRecord> records = new LinkedHashMap<>();
  final Map<String, Integer> deliveries = new LinkedHashMap<>();

  SimSink(Simulation sim) {
    this.sim = sim;
  }

  @Override
  public void deliver(List<EgressRecord> batch) {
    sim.step("egress " + batch.size() + " records");
    if (Faults.within(sim.faults().sinkDown, sim.now())) {
      throw new EgressException(
          EgressException.Reason.UNAVAILABLE, "the sink is down (simulated)", null);
    }
    for (EgressRecord record : batch) {
      records.putIfAbsent(record.id(), record);
      deliveries.merge(record.id(), 1, Integer::sum);
    }
    if (sim.faults().ambiguous(sim)) {
      throw new EgressException(
          EgressException.Reason.UNAVAILABLE, "no answer from the sink (simulated)", null);
    }
  }

  @Override
  public String toString() {
    return "sim-sink";
  }
}
