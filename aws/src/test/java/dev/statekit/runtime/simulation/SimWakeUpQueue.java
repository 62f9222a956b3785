package dev.statekit.runtime.simulation;

import dev.statekit.bus.BusException;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.InMemoryStandardQueue;
import dev.statekit.bus.MessageBus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An SQS standard queue as the simulated processes send wake-ups to it: the in-memory standard
 * queue (each message hidden for its own delay, visibility timeouts, receive counts) behind sends
 * that take time, fail while the queue is down and sometimes fail after SQS took the messages; and,
 * while faults last, what SQS's at-least-once delivery allows: a message lost, delivered twice, or
 * shown early or late (so wake-ups also arrive out of order).
 */
final class SimWakeUpQueue implements MessageBus {
  private final Simulation sim;
  final InMemoryStandardQueue real;
  int lost;
  int duplicated;
  int early;
  int late;

  SimWakeUpQueue(Simulation sim, InMemoryStandardQueue real) {
    this.sim = sim;
    this.real = real;
  }

  @Override
  public void send(List<BusMessage> messages) {
    sim.step(
        new Object() {
          @Override
          public String toString() {
            List<String> bodies = new ArrayList<>();
            messages.forEach(m -> bodies.add(m.body() + " +" + m.delaySeconds() + "s"));
            return "send to wake-ups " + bodies;
          }
        });
    if (Faults.within(sim.faults().queueDown, sim.now())) {
      throw refused(messages, "SQS kept refusing (simulated outage)");
    }
    boolean faulty = sim.faults().active(sim);
    for (BusMessage message : messages) {
      if (faulty && sim.chance(0.05)) {
        lost++;
        sim.trace("  wake-up lost: " + message.body());
        continue;
      }
      int delay = message.delaySeconds();
      if (faulty && sim.chance(0.05)) {
        early++;
        delay = (int) sim.between(0, delay);
      } else if (faulty && sim.chance(0.05)) {
        late++;
        delay = (int) Math.min(BusMessage.MAX_DELAY_SECONDS, delay + sim.between(1, 5));
      }
      real.send(List.of(message.delayedBy(delay)));
      if (faulty && sim.chance(0.05)) {
        duplicated++;
        real.send(
            List.of(
                message.delayedBy(
                    (int) Math.min(BusMessage.MAX_DELAY_SECONDS, delay + sim.between(0, 3)))));
      }
    }
    if (sim.faults().ambiguous(sim)) {
      sim.trace("  the answer to a send to wake-ups was lost");
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
    return "wake-ups";
  }
}
