package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.BusMessage;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.Address;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.store.FunctionStore;
import dev.statekit.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * What the runtime tests share: functions, sinks, a clock they move, and the servers — in memory or
 * real — that each concrete test class picks.
 */
abstract class RuntimeFixture {
  final ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
  final CollectingEgressSink counted = new CollectingEgressSink();
  final CollectingEgressSink fired = new CollectingEgressSink();
  final CollectingEgressSink seen = new CollectingEgressSink();
  private QueueSource queue;
  private QueueSource deadLetters;
  private QueueSource wakeUpQueue;
  final String run = UUID.randomUUID().toString().substring(0, 8);

  private Servers servers;

  /** The servers: in memory unless {@link #useServers} chose others. */
  Servers servers() {
    if (servers == null) {
      servers = new MemoryServers(clock);
    }
    return servers;
  }

  /** Runs the test against {@code servers} instead of the in-memory adapters. */
  public void useServers(Servers servers) {
    this.servers = servers;
  }

  /** The ingress queue, made on first use (after the subclass has its servers). */
  QueueSource queue() {
    if (queue == null) {
      queue = servers().newQueue("in");
    }
    return queue;
  }

  /** The standard queue of delayed messages' wake-ups, made on first use. */
  QueueSource wakeUpQueue() {
    if (wakeUpQueue == null) {
      wakeUpQueue = servers().newStandardQueue("wake");
    }
    return wakeUpQueue;
  }

  /** Lets {@code time} pass: for the runtime's clock, and for real servers' queues. */
  void elapse(Duration time) {
    servers().sleep(time);
    clock.advance(time);
  }

  /** The dead-letter queue, made on first use. */
  QueueSource deadLetters() {
    if (deadLetters == null) {
      deadLetters = servers().newQueue("dlq");
    }
    return deadLetters;
  }

  FunctionStore store() {
    return servers().store();
  }

  /** Lets messages whose visibility timeout runs out come back. */
  void waitForVisibility() {
    servers().waitForVisibility();
  }

  FunctionRuntime runtime() {
    return runtime(b -> {});
  }

  FunctionRuntime runtime(Consumer<FunctionRuntime.Builder> tweak) {
    return runtime(tweak, TestFunctions.registry());
  }

  /** A runtime of {@code functions}, as a deploy with another registry runs it. */
  FunctionRuntime runtime(
      Consumer<FunctionRuntime.Builder> tweak, dev.statekit.function.StatefulFunctions functions) {
    FunctionRuntime.Builder builder =
        FunctionRuntime.builder(functions)
            .store(store())
            .queue(queue().bus())
            .deadLetters(deadLetters().bus())
            .clock(clock)
            .maxAttempts(2)
            .egress(
                EgressRoutes.builder()
                    .route(TestFunctions.COUNTED, counted)
                    .route(TestFunctions.FIRED, fired)
                    .route(TestFunctions.SEEN, seen)
                    .build());
    tweak.accept(builder);
    return builder.build();
  }

  Address address(dev.statekit.types.TypeName type, String id) {
    return Address.of(type, id + "-" + run);
  }

  DirectInvocation count(String id, long n) {
    return DirectInvocation.of(
        MessageBuilder.forAddress(address(TestFunctions.COUNTER, id)).withValue(n).build());
  }

  DirectResult.Status status(DirectResult result) {
    return result.status();
  }

  /** Sends {@code message} to the ingress queue as its envelope, in its address's group. */
  void enqueue(Message message) {
    enqueue(queue(), message);
  }

  /** Sends {@code message} to {@code queue} as its envelope, in its address's group. */
  static void enqueue(QueueSource queue, Message message) {
    queue
        .bus()
        .send(
            List.of(
                new BusMessage(
                    Ingress.groupId(message.targetAddress()),
                    UUID.randomUUID().toString(),
                    Ingress.envelope(message))));
  }

  /** The dead letters so far, one line each: their target and error. */
  List<String> deadLetterReport() {
    List<String> report = new ArrayList<>();
    deadLetters()
        .peekAll()
        .forEach(
            l ->
                report.add(
                    l.getValue().get("statekit.target")
                        + ": "
                        + l.getValue().get("statekit.error")));
    return report;
  }

  void drain(FunctionRuntime runtime) {
    LambdaLikeWorker.drain(queue(), runtime, 2);
  }

  static void assertApplied(List<DirectResult> results) {
    for (DirectResult result : results) {
      assertTrue(result.succeeded(), "not applied: " + result);
    }
  }

  static void assertStatus(DirectResult.Status expected, DirectResult result) {
    assertEquals(expected, result.status(), () -> "result " + result);
  }

  /**
   * How many outboxes a sweep finds still undelivered once they are due again (a sweep skips those
   * tried within {@code outboxSweepAfter}).
   */
  int outboxesLeftLater(FunctionRuntime runtime) {
    clock.advance(Duration.ofMinutes(3));
    return runtime.sweepTimers().outboxesLeft();
  }

  static Duration seconds(long s) {
    return Duration.ofSeconds(s);
  }

  /** The long value {@code spec} of {@code address} as committed, 0 if it has none. */
  long value(Address address, dev.statekit.function.ValueSpec<Long> spec) {
    var value = store().reload(address).values().get(spec.name());
    return value == null ? 0 : dev.statekit.types.Types.longType().deserialize(value.bytes());
  }

  /** Each dead letter's "applied=.. attempts=.. error=..", without taking it off its queue. */
  List<String> deadLetterErrors() {
    List<String> errors = new java.util.ArrayList<>();
    for (java.util.Map.Entry<String, java.util.Map<String, String>> letter :
        deadLetters().peekAll()) {
      errors.add(
          "applied="
              + letter.getValue().get("statekit.applied")
              + " attempts="
              + letter.getValue().get("statekit.attempts")
              + " error="
              + letter.getValue().get("statekit.error"));
    }
    return errors;
  }
}
