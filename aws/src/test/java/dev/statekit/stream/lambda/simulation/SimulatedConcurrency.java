package dev.statekit.stream.lambda.simulation;

import dev.statekit.stream.lambda.BatchConcurrency;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A step's independent calls one after another, in an order the seed picks (as their answers may
 * come back in any order), and sometimes a crash part way: the calls before it happened, the others
 * never did.
 */
final class SimulatedConcurrency implements BatchConcurrency {
  private final Faults faults;
  private final Trace trace;

  SimulatedConcurrency(Faults faults, Trace trace) {
    this.faults = faults;
    this.trace = trace;
  }

  @Override
  public void runAll(List<Runnable> calls) {
    List<Runnable> order = new ArrayList<>(calls);
    Collections.shuffle(order, faults.random);
    int crashAt = faults.chance(faults.crashInStep) ? faults.random.nextInt(order.size()) : -1;
    RuntimeException first = null;
    for (int i = 0; i < order.size(); i++) {
      if (i == crashAt) {
        trace.add("crash after " + i + " of " + order.size() + " calls of a step");
        throw new Crash("within a step");
      }
      try {
        order.get(i).run();
      } catch (Crash crash) {
        throw crash;
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
