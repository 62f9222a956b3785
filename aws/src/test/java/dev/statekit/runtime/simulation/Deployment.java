package dev.statekit.runtime.simulation;

import dev.statekit.Deadline;
import dev.statekit.StateKitException;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.InMemoryStandardQueue;
import dev.statekit.bus.QueueMessage;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.runtime.DirectInvocation;
import dev.statekit.runtime.DirectResult;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.QueueBatchResult;
import dev.statekit.runtime.SimulationAccess;
import dev.statekit.runtime.internal.FaultHook;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What AWS does around the runtime, as its documentation says: Lambda's SQS FIFO event source
 * mapping (pollers that receive up to ten messages, invoke a function, delete what it did not name
 * in {@code batchItemFailures}, and sometimes invoke twice), execution environments (processes with
 * their own clock skew, that die at a crash and are replaced, and are retired by a deploy that
 * removes a function), the one-minute schedule of the sweep, and clients that invoke directly and
 * retry with the same key.
 */
final class Deployment {
  static final Duration VISIBILITY = Duration.ofSeconds(30);
  static final int MAX_RECEIVES = 10;
  static final int MAX_ATTEMPTS = 5;
  static final int POLLERS = 3;
  static final int WAKE_UP_POLLERS = 2;

  /** Off with -Dsimulation.wakeUps=false: every schedule then runs with the sweep alone. */
  private static final boolean WAKE_UPS =
      Boolean.parseBoolean(System.getProperty("simulation.wakeUps", "true"));

  final Simulation sim;
  final SimStore store;
  final InMemoryMessageBus deadLettersQueue;
  final InMemoryMessageBus ingressQueue;
  final SimQueue ingress;
  final SimQueue deadLetters;
  final InMemoryStandardQueue wakeUpQueue;
  final SimWakeUpQueue wakeUps;

  /** Whether the runtime has a wake-up queue (most schedules), or only the sweep. */
  final boolean onTime;

  final SimSink sink;
  private final long redeployAt;

  /** The function's timeout: an invocation still running then is ended. */
  final Duration timeout;

  private final Duration outboxSweepAfter;
  private final List<Environment> idle = new ArrayList<>();
  private int environments;
  private final Set<Integer> busyPollers = new HashSet<>();
  int crashes;
  int duplicates;

  /**
   * Per message id, for each receive whether the runtime could not settle it (its process died, it
   * ran past the visibility timeout, or it failed on its last attempt: the dead-letter queue
   * refused); per body, its message ids.
   */
  final java.util.Map<String, List<Boolean>> receives = new java.util.HashMap<>();

  /** Failures on a last attempt that did not come from the dead-letter queue refusing. */
  final List<String> unsettledLastAttempts = new ArrayList<>();

  private final java.util.Map<String, String> lastErrors = new java.util.HashMap<>();

  final java.util.Map<String, Set<String>> idsByBody = new java.util.HashMap<>();

  /**
   * A deployment whose function times out after {@code timeout}; the runtime's sweep takes over
   * outboxes after more than twice that, as its documentation asks.
   */
  Deployment(Simulation sim, long redeployAt, Duration timeout) {
    this.sim = sim;
    this.timeout = timeout;
    this.outboxSweepAfter = timeout.multipliedBy(2).plusMinutes(1);
    this.store = new SimStore(sim);
    this.deadLettersQueue = new InMemoryMessageBus(sim.clock(0), VISIBILITY);
    this.ingressQueue =
        new InMemoryMessageBus(sim.clock(0), VISIBILITY, deadLettersQueue, MAX_RECEIVES);
    this.ingress = new SimQueue(sim, "ingress", ingressQueue);
    this.deadLetters = new SimQueue(sim, "dead-letters", deadLettersQueue);
    this.sink = new SimSink(sim);
    this.redeployAt = redeployAt;
    this.wakeUpQueue = new InMemoryStandardQueue(sim.clock(0), VISIBILITY);
    this.wakeUps = new SimWakeUpQueue(sim, wakeUpQueue);
    this.onTime = sim.chance(0.8) && WAKE_UPS;
  }

  /**
   * Whether a message with {@code body} died with its process on each of its last receives before
   * the queue's redrive: the one way it can reach the dead-letter queue without its error.
   */
  boolean unsettledOnItsLastReceives(String body) {
    int last = MAX_RECEIVES - MAX_ATTEMPTS + 1;
    for (String id : idsByBody.getOrDefault(body, Set.of())) {
      List<Boolean> outcomes = receives.get(id);
      if (outcomes.size() >= last
          && outcomes.subList(outcomes.size() - last, outcomes.size()).stream()
              .allMatch(Boolean::booleanValue)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the deploy that removes {@code sim/legacy} has happened. */
  boolean redeployed() {
    return redeployAt > 0 && sim.now() >= redeployAt;
  }

  /** Starts the pollers and the schedule. */
  void start() {
    for (int p = 0; p < POLLERS; p++) {
      int poller = p;
      sim.at(sim.now() + sim.between(0, 1_000), () -> poll(poller));
    }
    if (onTime) {
      for (int p = 0; p < WAKE_UP_POLLERS; p++) {
        int poller = p;
        sim.at(sim.now() + sim.between(0, 1_000), () -> pollWakeUps(poller));
      }
    }
    sim.at(sim.now() + 60_000, this::tick);
  }

  /**
   * The wake-up queue's event source mapping: receives, invokes, deletes what the answer did not
   * name; sometimes invokes a batch twice.
   */
  private void pollWakeUps(int poller) {
    List<InMemoryMessageBus.Received> batch = wakeUpQueue.receive(10);
    if (batch.isEmpty()) {
      sim.at(sim.now() + sim.between(20, 1_000), () -> pollWakeUps(poller));
      return;
    }
    List<QueueMessage> messages = new ArrayList<>();
    batch.forEach(r -> messages.add(r.message()));
    sim.trace("wake-poller" + poller + " receives", messages.size() + " wake-up(s)");
    Consumer<Boolean> next =
        died -> sim.at(sim.now() + sim.between(1, 50), () -> pollWakeUps(poller));
    run(
        "wake" + poller,
        runtime -> {
          QueueBatchResult result = runtime.processQueueBatch(messages);
          Set<String> failed = new HashSet<>(result.failedMessageIds());
          sim.at(
              sim.now() + sim.between(1, 50),
              () -> {
                for (InMemoryMessageBus.Received received : batch) {
                  if (!failed.contains(received.message().messageId())) {
                    wakeUpQueue.delete(received.receiptHandle());
                  }
                }
              });
        },
        next);
    if (sim.faults().duplicate(sim)) {
      duplicates++;
      run("wake-again" + poller, runtime -> runtime.processQueueBatch(messages), died -> {});
    }
  }

  private void poll(int poller) {
    List<InMemoryMessageBus.Received> batch = ingressQueue.receive(10);
    if (batch.isEmpty()) {
      // Long polling: an empty receive waits before it answers.
      sim.at(sim.now() + 1_000, () -> poll(poller));
      return;
    }
    busyPollers.add(poller);
    List<QueueMessage> messages = new ArrayList<>();
    batch.forEach(r -> messages.add(r.message()));
    sim.trace(
        "poller" + poller + " receives",
        new Object() {
          @Override
          public String toString() {
            List<String> seen = new ArrayList<>();
            messages.forEach(m -> seen.add(brief(m.body()) + " #" + m.receiveCount()));
            return seen.toString();
          }
        });
    long received = sim.now();
    invokeBatch(
        "batch" + poller,
        batch,
        messages,
        died -> {
          // A batch that outlived the visibility timeout lost its messages to the next receive.
          boolean late = sim.now() - received >= VISIBILITY.toMillis();
          for (QueueMessage m : messages) {
            boolean lastFailed =
                m.receiveCount() >= MAX_ATTEMPTS && lastErrors.containsKey(m.messageId());
            receives
                .computeIfAbsent(m.messageId(), id -> new ArrayList<>())
                .add(died || late || lastFailed);
            idsByBody.computeIfAbsent(m.body(), b -> new HashSet<>()).add(m.messageId());
          }
          busyPollers.remove(poller);
          sim.at(sim.now() + sim.between(1, 200), () -> poll(poller));
        });
    if (sim.faults().duplicate(sim)) {
      duplicates++;
      invokeBatch("again" + poller, batch, messages, died -> {});
    }
  }

  private void invokeBatch(
      String name,
      List<InMemoryMessageBus.Received> batch,
      List<QueueMessage> messages,
      Consumer<Boolean> then) {
    run(
        name,
        runtime -> {
          QueueBatchResult result = runtime.processQueueBatch(messages);
          Set<String> failed = new HashSet<>(result.failedMessageIds());
          for (QueueMessage m : messages) {
            String error = result.errors().get(m.messageId());
            lastErrors.remove(m.messageId());
            if (error != null && m.receiveCount() >= MAX_ATTEMPTS) {
              lastErrors.put(m.messageId(), error);
              if (!error.contains("dead-letter queue refused")
                  && !error.contains("did not answer whether its commit was written")
                  && !error.contains("before it in its group failed")) {
                unsettledLastAttempts.add(brief(m.body()) + ": " + error);
              }
            }
          }
          sim.trace(name + " answers", result);
          // Lambda deletes what succeeded once the function answered.
          sim.at(
              sim.now() + sim.between(1, 50),
              () -> {
                for (InMemoryMessageBus.Received received : batch) {
                  if (!failed.contains(received.message().messageId())) {
                    ingressQueue.delete(received.receiptHandle());
                  }
                }
              });
        },
        then);
  }

  /** A message body, short: its command, or what kind of runtime message it is. */
  static String brief(String body) {
    int value = body.indexOf("\"value\":\"");
    String kind =
        body.contains("\"statekit\":\"bundle\"")
            ? "bundle"
            : body.contains("\"statekit\":\"timer\"") ? "timer" : "";
    if (value < 0) {
      return kind.isEmpty() ? body : kind;
    }
    String rest = body.substring(value + 9);
    String shown = rest.substring(0, Math.max(0, rest.indexOf('"')));
    if (!kind.isEmpty()) {
      try {
        shown =
            dev.statekit.types.Types.stringType()
                .deserialize(java.util.Base64.getDecoder().decode(shown));
      } catch (RuntimeException e) {
        // as it is
      }
    }
    return (kind.isEmpty() ? "" : kind + ":") + shown;
  }

  private void tick() {
    run("sweep", runtime -> runtime.sweepTimers(Deadline.none()), died -> {});
    sim.at(sim.now() + 60_000, this::tick);
  }

  /**
   * A client's direct invoke; it retries a failure or a lost answer with the same key, up to four
   * times, and {@code settled} hears the last answer (null: it gave up on an error).
   */
  void invoke(String name, DirectInvocation invocation, int tries, Consumer<DirectResult> settled) {
    DirectResult[] answer = new DirectResult[1];
    run(
        name,
        runtime -> answer[0] = runtime.invoke(invocation),
        died -> {
          boolean retry = answer[0] == null || answer[0].status() == DirectResult.Status.FAILED;
          if (!retry || invocation.idempotencyKey() == null || tries >= 4) {
            settled.accept(answer[0]);
          } else {
            sim.at(
                sim.now() + sim.between(1_000, 30_000),
                () -> invoke(name, invocation, tries + 1, settled));
          }
        });
  }

  /**
   * A client's request-reply call, retried like {@link #invoke} (with the same key) while its
   * answer is lost or says it may succeed again; {@code settled} hears the last answer.
   */
  void call(
      String name,
      DirectInvocation invocation,
      int tries,
      Consumer<dev.statekit.runtime.CallResult> settled) {
    dev.statekit.runtime.CallResult[] answer = new dev.statekit.runtime.CallResult[1];
    run(
        name,
        runtime -> answer[0] = runtime.call(invocation),
        died -> {
          boolean retry = answer[0] == null || answer[0].retryable();
          if (!retry || invocation.idempotencyKey() == null || tries >= 4) {
            settled.accept(answer[0]);
          } else {
            sim.at(
                sim.now() + sim.between(1_000, 30_000),
                () -> call(name, invocation, tries + 1, settled));
          }
        });
  }

  /**
   * Runs {@code work} in an execution environment (an idle one, or a new one), as an actor; a crash
   * ends the environment.
   */
  private void run(String name, Consumer<FunctionRuntime> work, Consumer<Boolean> then) {
    Environment environment = idle.isEmpty() || sim.chance(0.2) ? newEnvironment() : take();
    sim.spawn(
        name + "@" + environment.name,
        sim.now() + timeout.toMillis(),
        () -> {
          boolean crashed = false;
          try {
            work.accept(environment.runtime);
          } catch (Crash crash) {
            crashed = true;
          } catch (StateKitException failed) {
            // The invocation failed (a sweep whose store read failed): Lambda runs it again.
            sim.trace(name + " failed: " + failed.getMessage());
          }
          boolean died = crashed;
          sim.at(
              sim.now(),
              () -> {
                if (died) {
                  crashes++;
                } else if (!(environment.legacy && redeployed())) {
                  idle.add(environment);
                }
                then.accept(died);
              });
        });
  }

  private Environment take() {
    Environment environment = idle.remove(sim.nextInt(idle.size()));
    if (environment.legacy && redeployed()) {
      // The deploy retired it.
      return newEnvironment();
    }
    return environment;
  }

  private Environment newEnvironment() {
    boolean legacy = !redeployed();
    long skew = sim.between(-2_000, 2_000);
    FaultHook hook = (step, address) -> sim.step("at " + step);
    FunctionRuntime.Builder builder =
        FunctionRuntime.builder(SimFunctions.registry(legacy))
            .store(store)
            .queue(ingress)
            .deadLetters(deadLetters)
            .egress(EgressRoutes.builder().route(SimFunctions.EVENTS, sink).build())
            .clock(sim.clock(skew))
            .maxAttempts(MAX_ATTEMPTS)
            .markCapacity(4)
            .idempotency(Duration.ofHours(7), 4)
            .outboxSweepAfter(outboxSweepAfter);
    if (onTime) {
      builder.wakeUps(wakeUps);
    }
    SimulationAccess.deterministic(
        builder, sim.split(), attempt -> sim.sleep(sim.between(5, 200)), hook);
    return new Environment("env" + environments++, builder.build(), legacy);
  }

  private record Environment(String name, FunctionRuntime runtime, boolean legacy) {}
}
