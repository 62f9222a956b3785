package dev.statekit.runtime.simulation;

import dev.statekit.bus.BusMessage;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.DirectInvocation;
import dev.statekit.runtime.DirectResult;
import dev.statekit.runtime.Ingress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One schedule's input, drawn from its seed: messages to a few nodes, a hub most of them tell
 * (fan-in) and a legacy address whose function a deploy may remove; plain messages, fan-outs with
 * egress, delayed messages with and without later cancellations, poison messages; sent through the
 * queue (some twice, with the same idempotency key under another deduplication id) or invoked
 * directly (most with a key, retried on failure; some without, never retried).
 */
final class Workload {
  /** How a message enters. */
  enum Path {
    QUEUE,
    QUEUE_TWICE,
    DIRECT
  }

  /** One message the workload sends. */
  record Item(String id, String target, String command, Path path, String key, long at) {}

  final List<Item> items = new ArrayList<>();
  final List<String> nodes = new ArrayList<>();
  final Map<String, DirectResult> answers = new HashMap<>();

  /** The last answers of the direct invokes made as request-reply calls. */
  final Map<String, dev.statekit.runtime.CallResult> callAnswers = new HashMap<>();

  /**
   * Whether a keyed direct invoke is made as a call: half of them, by the item's id, so that no
   * draw is added and every seed keeps its schedule.
   */
  static boolean isCall(Item item) {
    return item.path() == Path.DIRECT
        && item.key() != null
        && (item.id().hashCode() & 1) == 0
        && !Boolean.getBoolean("simulation.noCalls");
  }

  final Map<String, Boolean> answered = new HashMap<>();

  static Workload draw(Simulation sim) {
    Workload workload = new Workload();
    int nodes = 2 + sim.nextInt(5);
    for (int n = 0; n < nodes; n++) {
      workload.nodes.add("n" + n);
    }
    workload.nodes.add("hub");
    int count = 10 + sim.nextInt(30);
    for (int i = 0; i < count; i++) {
      workload.draw(sim, i);
    }
    return workload;
  }

  private void draw(Simulation sim, int i) {
    String id = "x" + i;
    String target = sim.chance(0.06) ? "l0" : nodes.get(sim.nextInt(nodes.size()));
    long at = sim.between(0, 240_000);
    int kind = sim.nextInt(100);
    String command;
    boolean poison = false;
    if (kind < 25) {
      command = "m " + id;
    } else if (kind < 60) {
      List<String> targets = new ArrayList<>();
      int fanout = 1 + sim.nextInt(3);
      for (int k = 0; k < fanout; k++) {
        targets.add(
            sim.chance(0.5)
                ? "hub"
                : sim.chance(0.1) ? "l0" : nodes.get(sim.nextInt(nodes.size())));
      }
      command = "fan " + id + " " + String.join(",", targets);
    } else if (kind < 92) {
      String fireAt = sim.chance(0.8) ? target : nodes.get(sim.nextInt(nodes.size()));
      // Now and then past the 15 minutes a wake-up can wait: the sweep wakes those.
      long delay = sim.chance(0.05) ? sim.between(900_000, 960_000) : sim.between(1, 90_000);
      command = "delay " + id + " " + delay + " k" + i + " " + fireAt;
      if (sim.chance(0.5)) {
        // Within the workload's window even for a long delay: the run ends once all is quiet.
        long cancelAt = Math.max(0, at + sim.between(-5_000, Math.min(delay, 90_000) + 20_000));
        add(sim, "c" + i, target, "cancel c" + i + " k" + i, cancelAt, false);
      }
    } else {
      command = "poison " + id;
      poison = true;
    }
    add(sim, id, target, command, at, poison);
  }

  private void add(
      Simulation sim, String id, String target, String command, long at, boolean poison) {
    Path path;
    if (poison || sim.chance(0.75)) {
      path = !poison && sim.chance(0.15) ? Path.QUEUE_TWICE : Path.QUEUE;
    } else {
      path = Path.DIRECT;
    }
    String key =
        path == Path.QUEUE_TWICE || (path == Path.DIRECT && sim.chance(0.7)) || sim.chance(0.2)
            ? "key-" + id
            : null;
    items.add(new Item(id, target, command, path, key, Simulation.START + at));
  }

  /** Puts every message on the timeline. */
  void schedule(Deployment deployment) {
    Simulation sim = deployment.sim;
    for (Item item : items) {
      Message message =
          MessageBuilder.forAddress(SimFunctions.address(item.target()))
              .withValue(item.command())
              .build();
      switch (item.path()) {
        case QUEUE -> sim.at(item.at(), () -> enqueue(deployment, item, message, "first"));
        case QUEUE_TWICE -> {
          sim.at(item.at(), () -> enqueue(deployment, item, message, "first"));
          sim.at(
              item.at() + sim.between(1_000, 400_000),
              () -> enqueue(deployment, item, message, "again"));
        }
        case DIRECT ->
            sim.at(
                item.at(),
                () -> {
                  if (isCall(item)) {
                    deployment.call(
                        "caller-" + item.id(),
                        new DirectInvocation(message, item.key()),
                        1,
                        answer -> {
                          callAnswers.put(item.id(), answer);
                          answers.put(item.id(), asDirect(answer));
                          answered.put(item.id(), true);
                        });
                    return;
                  }
                  deployment.invoke(
                      "client-" + item.id(),
                      new DirectInvocation(message, item.key()),
                      1,
                      answer -> {
                        answers.put(item.id(), answer);
                        answered.put(item.id(), true);
                      });
                });
      }
    }
  }

  /** A call's answer as the direct invoke's the invariants read: applied (now or before) or not. */
  private static DirectResult asDirect(dev.statekit.runtime.CallResult answer) {
    if (answer == null) {
      return null;
    }
    return switch (answer.status()) {
      case APPLIED ->
          new DirectResult(
              answer.repeat() ? DirectResult.Status.DUPLICATE : DirectResult.Status.APPLIED, null);
      case REJECTED -> new DirectResult(DirectResult.Status.REJECTED, answer.error());
      default -> new DirectResult(DirectResult.Status.FAILED, answer.error());
    };
  }

  private static void enqueue(Deployment deployment, Item item, Message message, String copy) {
    String body =
        item.key() == null
            ? Ingress.envelope(message)
            : EnvelopeCodec.renderText(
                message.targetAddress(),
                message.valueTypeName().asString(),
                message.rawValue(),
                item.key());
    deployment.ingressQueue.send(
        List.of(
            new BusMessage(
                Ingress.groupId(message.targetAddress()), item.id() + "-" + copy, body)));
  }

  /** Whether every direct invoke has had its last answer. */
  boolean allAnswered() {
    long direct = items.stream().filter(i -> i.path() == Path.DIRECT).count();
    return answered.size() == direct;
  }

  /** The names of every address the workload touches. */
  List<String> addresses() {
    List<String> all = new ArrayList<>(nodes);
    all.add("l0");
    return all;
  }
}
