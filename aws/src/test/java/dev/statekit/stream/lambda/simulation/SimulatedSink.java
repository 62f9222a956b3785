package dev.statekit.stream.lambda.simulation;

import dev.statekit.StateKitException.Reason;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sink that keeps records by id, as a table or a FIFO queue's deduplication would: a record
 * delivered again with the same id and value is one record; the same id with another value is a
 * violation (an output computed twice from different state). It is down for a while, fails some
 * deliveries part way (the first records taken), and an invocation may die after it took them.
 */
final class SimulatedSink implements EgressSink {
  private final Faults faults;
  private final Turns turns;
  private final Trace trace;
  private final Map<String, String> records = new TreeMap<>();
  final List<String> conflicts = new ArrayList<>();
  int deliveries;

  SimulatedSink(Faults faults, Turns turns, Trace trace) {
    this.faults = faults;
    this.turns = turns;
    this.trace = trace;
  }

  @Override
  public void deliver(List<EgressRecord> batch) {
    turns.yieldTurn();
    int taken = batch.size();
    boolean failing = faults.sinkDown();
    if (failing) {
      taken = faults.random.nextInt(batch.size() + 1);
    }
    for (EgressRecord record : batch.subList(0, taken)) {
      deliveries++;
      String value = record.textOrBase64();
      String before = records.putIfAbsent(record.id(), value);
      if (before != null && !before.equals(value)) {
        conflicts.add(record.id() + ": " + before + " then " + value);
        trace.add("the sink got " + record.id() + " again with another value: " + value);
      }
    }
    if (failing) {
      trace.add("sink took " + taken + " of " + batch.size() + " records and failed");
      throw new EgressException(Reason.UNAVAILABLE, "simulated: the sink is down", null);
    }
    if (faults.chance(faults.crashAfterCall)) {
      trace.add("crash after the sink took " + batch.size() + " records");
      throw new Crash("after a delivery");
    }
  }

  /** Every record kept, by id. */
  Map<String, String> records() {
    return records;
  }
}
