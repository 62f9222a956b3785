package dev.statekit.runtime.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.bus.BusMessage;
import dev.statekit.egress.EgressRecord;
import dev.statekit.function.Address;
import dev.statekit.runtime.DirectResult;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.OutboxEntry;
import dev.statekit.runtime.store.StoredValue;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What must hold after every schedule, checked against the committed state, the queues and the sink
 * once the faults stopped and everything had time to drain:
 *
 * <ol>
 *   <li>exactly once: each message applied once at its target (a poison message never), or
 *       dead-lettered once with its error and applied at most once; a direct invoke that was
 *       answered applied once, one given up at most once;
 *   <li>nothing lost: every effect of an applied message delivered (each fan-out message applied
 *       once, its egress record in the sink, its delayed message applied once unless cancelled
 *       before it arrived), or dead-lettered with its error;
 *   <li>a cancellation the address applied before its timer's message wins; one after it does
 *       nothing;
 *   <li>nothing stuck: the ingress queue empty, no outbox registered, no timer left;
 *   <li>bounded: no address's item past {@link #MAX_ITEM_BYTES};
 *   <li>failures visible: every dead letter carries its error (none came through the queue's
 *       redrive).
 * </ol>
 */
final class Invariants {
  static final long MAX_ITEM_BYTES = 16 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Workload workload;
  private final Deployment deployment;
  private final List<String> violations = new ArrayList<>();
  private final Map<String, List<String[]>> logs = new HashMap<>();
  private final Map<String, Integer> letters = new HashMap<>();
  private final Map<String, List<String>> letterApplied = new HashMap<>();
  private final Map<String, Integer> egress = new HashMap<>();
  private final Map<String, Integer> egressLetters = new HashMap<>();
  private final java.util.Set<String> silent = new java.util.HashSet<>();

  private Invariants(Workload workload, Deployment deployment) {
    this.workload = workload;
    this.deployment = deployment;
  }

  /** The violations, empty if every invariant holds. */
  static List<String> check(Workload workload, Deployment deployment) {
    Invariants check = new Invariants(workload, deployment);
    check.read();
    deployment.unsettledLastAttempts.forEach(
        failure ->
            check.violations.add(
                "failed on its last attempt, yet not for want of the dead-letter"
                    + " queue: "
                    + failure));
    check.messages();
    check.drained();
    check.bounded();
    return check.violations;
  }

  private void read() {
    for (String name : workload.addresses()) {
      AddressState state = deployment.store.real.reload(SimFunctions.address(name));
      StoredValue log = state.values().get(SimFunctions.LOG.name());
      List<String[]> entries = new ArrayList<>();
      if (log != null) {
        for (String line :
            dev.statekit.types.Types.stringType().deserialize(log.bytes()).split("\n")) {
          entries.add(line.split(" "));
        }
      }
      logs.put(name, entries);
    }
    Map<String, Integer> copies = new HashMap<>();
    Map<String, java.util.Set<String>> ids = new HashMap<>();
    for (BusMessage letter : deployment.deadLettersQueue.peekAll()) {
      // The queue's redrive moves a message as it was: no error, no word of whether it was applied.
      boolean redriven = !letter.attributes().containsKey("statekit.error");
      if (redriven && !deployment.unsettledOnItsLastReceives(letter.body())) {
        violations.add("a dead letter without its error (the queue's redrive): " + letter.body());
      }
      copies.merge(letter.deduplicationId(), 1, Integer::sum);
      for (String command : commands(letter)) {
        String[] parts = command.split(" ");
        String key = parts[0] + " " + parts[1];
        if (redriven) {
          silent.add(key);
        }
        boolean egressLetter = "egress".equals(letter.attributes().get("statekit.kind"));
        if (!ids.computeIfAbsent((egressLetter ? "e " : "") + key, k -> new java.util.HashSet<>())
            .add(letter.deduplicationId())) {
          // Another copy of a dead letter already counted: checked below.
          continue;
        }
        if (egressLetter) {
          egressLetters.merge(parts[1], 1, Integer::sum);
        } else {
          letters.merge(key, 1, Integer::sum);
          letterApplied
              .computeIfAbsent(key, k -> new ArrayList<>())
              .add(letter.attributes().getOrDefault("statekit.applied", "unknown"));
        }
      }
    }
    // A dead letter's copies: SQS drops a repeat of its deduplication id for five minutes only. So
    // one more for each send SQS took but did not answer (sent again later), and one more for a
    // dead letter that waited in an outbox past that while its message was dead-lettered again on
    // its last attempt (the store failed, so nobody could tell). Never more: a message is never
    // dead-lettered again and again.
    copies.forEach(
        (id, n) -> {
          int allowed = 2 + deployment.deadLetters.unanswered.getOrDefault(id, 0);
          expect(n <= allowed, "dead letter " + id + " " + n + " times");
        });
    for (EgressRecord record : deployment.sink.records.values()) {
      egress.merge(record.text().orElse("").split(" ")[1], 1, Integer::sum);
    }
  }

  /** The commands a dead letter holds: an envelope's, a bundle's or a fired timer's. */
  private static List<String> commands(BusMessage letter) {
    List<String> commands = new ArrayList<>();
    try {
      JsonNode body = JSON.readTree(letter.body());
      if (body.has("statekit") && body.has("messages")) {
        for (JsonNode message : body.get("messages")) {
          commands.add(decoded(message.get("value").asText()));
        }
      } else if (body.has("statekit")) {
        commands.add(decoded(body.get("value").asText()));
      } else {
        commands.add(body.get("value").asText());
      }
    } catch (Exception e) {
      throw new IllegalStateException("unreadable dead letter " + letter.body(), e);
    }
    return commands;
  }

  private static String decoded(String base64) {
    return dev.statekit.types.Types.stringType().deserialize(Base64.getDecoder().decode(base64));
  }

  private void messages() {
    Map<String, Workload.Item> cancels = new HashMap<>();
    for (Workload.Item item : workload.items) {
      if (item.command().startsWith("cancel ")) {
        cancels.put(item.command().split(" ")[2], item);
      }
    }
    for (Workload.Item item : workload.items) {
      String[] command = item.command().split(" ");
      int applied = count(item.target(), item.id());
      int dead = letters.getOrDefault(command[0] + " " + item.id(), 0);
      String what = item.command() + " to " + item.target() + " (" + item.path() + ")";
      if (command[0].equals("poison")) {
        // Once, or also by the queue's redrive after it killed its process on every receive left
        // (or, to a function a deploy removed, once more for that).
        int allowed =
            1
                + (silent.contains("poison " + item.id()) ? 1 : 0)
                + (item.target().startsWith("l") ? 1 : 0);
        boolean once = dead >= 1 && dead <= allowed;
        expect(applied == 0 && once, what + ": applied " + applied + ", dead letters " + dead);
        continue;
      }
      if (!arrived(item, applied, dead, what)) {
        continue;
      }
      if (applied == 0) {
        expect(effects(item) == 0, what + " was not applied, but its effects were");
        continue;
      }
      reply(item, what);
      if (command[0].equals("fan")) {
        String[] targets = command[2].split(",");
        for (int k = 0; k < targets.length; k++) {
          String sub = item.id() + "." + k;
          effect(targets[k], "m", sub, what + ": its message " + sub + " to " + targets[k]);
        }
        // Dead-lettered egress records say they may have reached the sink (an answer lost).
        int delivered = egress.getOrDefault(item.id(), 0);
        int deadEgress = egressLetters.getOrDefault(item.id(), 0);
        expect(
            delivered <= 1 && deadEgress <= 1 && delivered + deadEgress >= 1,
            what
                + ": its egress record delivered "
                + delivered
                + " times, dead-lettered "
                + deadEgress);
      } else if (command[0].equals("delay")) {
        delayed(item, command, cancels.get(command[3]), what);
      }
    }
  }

  /**
   * A call answered as applied (now or, with its key, before) answers the reply of its one
   * application: the position its command took in the address's committed log.
   */
  private void reply(Workload.Item item, String what) {
    dev.statekit.runtime.CallResult answer = workload.callAnswers.get(item.id());
    if (answer == null || answer.status() != dev.statekit.runtime.CallResult.Status.APPLIED) {
      return;
    }
    List<String[]> log = logs.getOrDefault(item.target(), List.of());
    int position = index(log, item.id()) + 1;
    long replied =
        answer.replied()
            ? dev.statekit.types.Types.longType().deserialize(answer.replyValue())
            : -1;
    expect(
        replied == position,
        what
            + ": a call answered "
            + (answer.repeat() ? "(as a repeat) " : "")
            + (answer.replied() ? "reply " + replied : "no reply (" + answer.error() + ")")
            + ", but its one application is line "
            + position
            + " of the log");
  }

  /** Whether the message arrived as the path allows; false after a violation. */
  private boolean arrived(Workload.Item item, int applied, int dead, String what) {
    boolean ok;
    if (item.path() == Workload.Path.DIRECT) {
      DirectResult answer = workload.answers.get(item.id());
      ok = dead == 0 && (answer != null && answer.succeeded() ? applied == 1 : applied <= 1);
    } else {
      // Each copy on the queue may be dead-lettered on its last attempt (or, to a function a deploy
      // removed, when it arrives), and the queue's redrive adds one more when every receive left
      // died before the batch answered (a message that kills its process takes the rest of its
      // batch with it). A copy dead-lettered as not applied may see the other copy applied later:
      // its dead letter carries the message's key, so sending it again changes nothing.
      String key = item.command().split(" ")[0] + " " + item.id();
      int copies = item.path() == Workload.Path.QUEUE_TWICE ? 2 : 1;
      int redriven = silent.contains(key) ? 1 : 0;
      ok =
          applied <= 1
              && applied + dead >= 1
              && dead <= copies + redriven
              && (applied == 0 || notApplied(key) <= copies - 1);
    }
    expect(ok, what + ": applied " + applied + " times, dead-lettered " + dead);
    return ok;
  }

  /**
   * An effect: applied once, or dead-lettered; a dead letter beside an application must say it may
   * have been applied (a send whose answer was lost may have gone out), and the sender's dead
   * letter may meet the receiver's (whose function a deploy removed).
   */
  private void effect(String target, String kind, String id, String what) {
    int applied = count(target, kind, id);
    String key = kind + " " + id;
    int dead = letters.getOrDefault(key, 0);
    boolean ok =
        applied <= 1
            && dead <= 2
            && applied + dead >= 1
            && (dead <= 1 || anyMaybeApplied(key))
            && (applied == 0 || dead == 0 || allMaybeApplied(key));
    expect(ok, what + ": applied " + applied + " times, dead-lettered " + dead);
  }

  /** Whether every dead letter of {@code key} says its message may have been applied. */
  private boolean allMaybeApplied(String key) {
    return notApplied(key) == 0;
  }

  /** How many dead letters of {@code key} say their message was not applied. */
  private long notApplied(String key) {
    return letterApplied.getOrDefault(key, List.of()).stream().filter("no"::equals).count();
  }

  /** Whether a dead letter of {@code key} says its message may have been applied. */
  private boolean anyMaybeApplied(String key) {
    return letterApplied.getOrDefault(key, List.of()).stream().anyMatch(a -> !"no".equals(a));
  }

  private void delayed(Workload.Item item, String[] command, Workload.Item cancel, String what) {
    String fireAt = command[4];
    String fired = item.id();
    int times = count(fireAt, "t", fired);
    boolean cancelled = cancel != null && count(cancel.target(), cancel.id()) == 1;
    if (!cancelled) {
      effect(fireAt, "t", fired, what + ": its delayed message");
      return;
    }
    expect(times <= 1, what + ": its delayed message applied " + times + " times");
    if (!fireAt.equals(item.target())) {
      return;
    }
    List<String[]> log = logs.get(item.target());
    int delay = index(log, item.id());
    int cancelIndex = index(log, cancel.id());
    int fire = index(log, "t", fired);
    if (cancelIndex > delay) {
      expect(
          fire < 0 || fire < cancelIndex,
          what + ": cancelled at " + cancelIndex + " but its message came at " + fire);
    } else {
      expect(
          times == 1 || letters.getOrDefault("t " + fired, 0) == 1,
          what + ": cancelled before it was set, yet its message came " + times + " times");
    }
  }

  /** How many effects an item left: its fan-out messages, its egress, its delayed message. */
  private int effects(Workload.Item item) {
    String[] command = item.command().split(" ");
    int found = 0;
    if (command[0].equals("fan")) {
      String[] targets = command[2].split(",");
      for (int k = 0; k < targets.length; k++) {
        found += count(targets[k], item.id() + "." + k);
      }
      found += egress.getOrDefault(item.id(), 0) + egressLetters.getOrDefault(item.id(), 0);
    } else if (command[0].equals("delay")) {
      found += count(command[4], "t", item.id());
    }
    return found;
  }

  private void drained() {
    expect(
        deployment.ingressQueue.size() == 0,
        deployment.ingressQueue.size() + " messages left on the ingress queue");
    for (OutboxEntry entry : deployment.store.real.allOutboxes()) {
      expect(entry.addresses().isEmpty(), "outboxes still registered: " + entry);
    }
    expect(
        deployment.store.real.allTimers().isEmpty(),
        "timers left: " + deployment.store.real.allTimers());
  }

  private void bounded() {
    // Large egress records stay in the item until delivered: then DynamoDB's own limit bounds it.
    long most =
        SimFunctions.egressPad > 0
            ? dev.statekit.runtime.store.DynamoDbItemSize.DYNAMODB_ITEM_LIMIT
            : MAX_ITEM_BYTES;
    for (Map.Entry<Address, Long> item : deployment.store.largestItems().entrySet()) {
      expect(
          item.getValue() <= most, item.getKey() + "'s item grew to " + item.getValue() + " bytes");
    }
  }

  private int count(String address, String id) {
    int found = 0;
    for (String[] entry : logs.getOrDefault(address, List.of())) {
      if (!entry[0].equals("t") && entry[1].equals(id)) {
        found++;
      }
    }
    return found;
  }

  private int count(String address, String kind, String id) {
    int found = 0;
    for (String[] entry : logs.getOrDefault(address, List.of())) {
      if (entry[0].equals(kind) && entry[1].equals(id)) {
        found++;
      }
    }
    return found;
  }

  private static int index(List<String[]> log, String id) {
    for (int i = 0; i < log.size(); i++) {
      if (!log.get(i)[0].equals("t") && log.get(i)[1].equals(id)) {
        return i;
      }
    }
    return -1;
  }

  private static int index(List<String[]> log, String kind, String id) {
    for (int i = 0; i < log.size(); i++) {
      if (log.get(i)[0].equals(kind) && log.get(i)[1].equals(id)) {
        return i;
      }
    }
    return -1;
  }

  private void expect(boolean holds, String violation) {
    if (!holds) {
      violations.add(violation);
    }
  }
}
