package dev.statekit.runtime.simulation;

import dev.statekit.bus.BusException;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.MessageBus;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An SQS FIFO queue as the simulated processes send to it: the in-memory queue (groups handed out
 * in order and never while in flight, visibility timeouts, receive counts, five minutes of
 * deduplication also after deletion, the redrive policy) behind sends that take time, fail while
 * the queue is down, and sometimes fail after SQS took the messages.
 */
final class SimQueue implements MessageBus {
  private final Simulation sim;
  private final String name;
  final InMemoryMessageBus real;

  /** Per deduplication id, how many sends SQS took but did not answer. */
  final java.util.Map<String, Integer> unanswered = new java.util.HashMap<>();

  SimQueue(Simulation sim, String name, InMemoryMessageBus real) {
    this.sim = sim;
    this.name = name;
    this.real = real;
  }

  @Override
  public void send(List<BusMessage> messages) {
    sim.step(
        new Object() {
          @Override
          public String toString() {
            List<String> bodies = new java.util.ArrayList<>();
            messages.forEach(m -> bodies.add(Deployment.brief(m.body())));
            return "send to " + name + " " + bodies;
          }
        });
    if (Faults.within(sim.faults().queueDown, sim.now())) {
      throw refused(messages, "SQS kept refusing (simulated outage)");
    }
    real.send(messages);
    if (sim.faults().ambiguous(sim)) {
      messages.forEach(m -> unanswered.merge(m.deduplicationId(), 1, Integer::sum));
      sim.trace("  the answer to a send to " + name + " was lost");
      throw refused(messages, "No answer from SQS (simulated)");
    }
  }

  private static BusException refused(List<BusMessage> messages, String why) {
    Set<Integer> all = new HashSet<>();
    for (int i = 0; i < messages.size(); i++) {
      all.add(i);
    }
    return new BusException(BusException.Reason.UNAVAILABLE, why, all, null);
  }

  @Override
  public int maxMessageBytes() {
    return real.maxMessageBytes();
  }

  @Override
  public String toString() {
    return name;
  }
}
