package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.BusMessage;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.EgressSink;
import dev.statekit.function.Address;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.internal.FaultHook;
import dev.statekit.runtime.store.FunctionStore;
import dev.statekit.runtime.store.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Schedules that broke "exactly once, nothing lost" before: each test is one of them, named for
 * what must hold.
 */
abstract class ReliabilityCasesContract extends RuntimeFixture {

  /** How many senders the fan-in test's aggregate hears from. */
  abstract int senders();

  /** The mark capacity the fan-in test runs with. */
  abstract int markCapacity();

  // 1
  @Test
  void aCancellationAndItsTimersMessageInOneBatchAreOneCommit() {
    FunctionRuntime runtime = runtime();
    Address cancelFirst = address(TestFunctions.REMINDER, "cancel-first");
    Address fireFirst = address(TestFunctions.REMINDER, "fire-first");
    runtime.invoke(command(cancelFirst, "set:1000:t"));
    runtime.invoke(command(fireFirst, "set:1000:t"));
    clock.advance(Duration.ofSeconds(2));
    enqueue(command(cancelFirst, "cancel:t").message());
    assertEquals(2, runtime.sweepTimers().sent());
    enqueue(command(fireFirst, "cancel:t").message());

    QueueBatchResult batch = pollAll(runtime);

    assertEquals(List.of(), batch.failedMessageIds(), "one commit each: " + batch.errors());
    assertEquals(
        List.of(fireFirst.id() + " fired t"),
        fired.texts(),
        "the cancellation the address saw first wins; the one after the message does nothing");
    clock.advance(Duration.ofMinutes(10));
    assertEquals(0, runtime.sweepTimers().sent(), "both timers are gone");
    drain(runtime);
    assertEquals(1, fired.texts().size());
    assertEquals(0, deadLetters().peekAll().size());
  }

  // 2
  @Test
  void undeliverableEffectsAreDeadLetteredWithTheirErrorBeforeTheQueueRedrives() {
    AtomicBoolean sinkDown = new AtomicBoolean(true);
    EgressSink flaky = new SwitchedSink(sinkDown);
    QueueSource queue = servers().newQueue("redriven", deadLetters(), 10);
    FunctionRuntime runtime =
        runtime(
            b ->
                b.queue(queue.bus())
                    .maxAttempts(5)
                    .egress(EgressRoutes.builder().route(TestFunctions.COUNTED, flaky).build()));
    Address counter = address(TestFunctions.TALLY, "down");
    Address total = Address.of(TestFunctions.TOTAL, "down-" + run);
    send(queue, countTo(counter, total, 1));

    for (int receive = 0; receive < 12; receive++) {
      LambdaLikeWorker.pollOnce(queue, runtime);
      waitForVisibility();
    }
    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();

    assertEquals(0, queue.peekAll().size(), "the runtime settled the message before the redrive");
    assertTrue(
        letters.stream().allMatch(l -> l.getValue().containsKey("statekit.error")),
        "nothing reached the dead-letter queue without its error: " + letters);
    assertEquals(1, letters.size(), "the egress record, once: " + letters);
    assertEquals("egress", letters.get(0).getValue().get("statekit.kind"));
    assertTrue(letters.get(0).getKey().contains(counter.id() + ":1"), letters.get(0).getKey());
    drain(runtime, queue);
    assertEquals(1, value(total, TestFunctions.COUNT), "its message to the total went out");

    sinkDown.set(false);
    send(queue, countTo(counter, total, 2));
    drain(runtime, queue);
    assertEquals(List.of(counter.id() + ":2"), ((SwitchedSink) flaky).texts());
    assertEquals(2, value(counter, TestFunctions.COUNT));
    assertEquals(2, value(total, TestFunctions.COUNT));
    assertEquals(1, deadLetters().peekAll().size());
  }

  // 3
  @Test
  void anAddressHearsFromManyMoreSendersThanItsItemHolds() {
    FunctionRuntime runtime = runtime(b -> b.markCapacity(markCapacity()));
    FunctionRuntime crashing =
        runtime(
            b ->
                b.markCapacity(markCapacity())
                    .faultHook(
                        (step, address) -> {
                          if (step == FaultHook.Step.DELIVERED) {
                            throw new QueueBatchContract.SimulatedCrash();
                          }
                        }));
    Address total = Address.of(TestFunctions.TOTAL, "fan-in-" + run);
    // The first sender's outbox goes out, but its batch dies before it is known out.
    assertThrows(
        QueueBatchContract.SimulatedCrash.class,
        () ->
            crashing.invoke(
                DirectInvocation.of(countTo(address(TestFunctions.TALLY, "s0"), total, 1))));
    drain(runtime);
    List<DirectInvocation> batch = new ArrayList<>();
    for (int i = 1; i < senders(); i++) {
      batch.add(DirectInvocation.of(countTo(address(TestFunctions.TALLY, "s" + i), total, 1)));
      if (batch.size() == 100 || i == senders() - 1) {
        assertApplied(runtime.invoke(batch));
        batch = new ArrayList<>();
        drain(runtime);
      }
    }
    assertEquals(senders(), value(total, TestFunctions.COUNT));

    // Long after its mark left the total's item, the sweep sends the first bundle again.
    clock.advance(Duration.ofMinutes(3));
    assertEquals(1, runtime.sweepTimers().outboxes());
    drain(runtime);

    assertEquals(senders(), value(total, TestFunctions.COUNT), "the repeat was dropped");
    long size = store().sizeOf(store().reload(total));
    System.out.println(
        "[fan-in] the total's item after " + senders() + " senders: " + size + " bytes");
    assertTrue(size < 4 * 1024, "the total's item stays small: " + size + " bytes");
    assertEquals(0, deadLetters().peekAll().size());
  }

  // 4
  @Test
  void aDelayedMessageToAFunctionNoLongerDeployedIsDeadLetteredOnceAndItsTimerGoes() {
    FunctionRuntime before = runtime();
    FunctionRuntime after = runtime(b -> {}, TestFunctions.registryWithout(TestFunctions.COUNTER));
    Address owner = address(TestFunctions.REMINDER, "redeployed");
    String later = "later:1000:removed-" + run;
    assertApplied(List.of(before.invoke(command(owner, later))));
    clock.advance(Duration.ofSeconds(2));

    assertEquals(1, after.sweepTimers().sent());
    drain(after);
    clock.advance(Duration.ofMinutes(6));
    assertEquals(0, after.sweepTimers().sent(), "the timer went with its dead letter");
    drain(after);

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(1, letters.size(), "one dead letter: " + letters);
    assertTrue(letters.get(0).getValue().get("statekit.error").contains("test/counter"));
    assertTrue(store().reload(owner).pendingTokens().isEmpty(), "the owner's token is free");
    assertApplied(List.of(after.invoke(command(owner, later))));
  }

  // 5
  @Test
  void theEffectsOfADirectInvokeWhoseCallerGaveUpAreDeliveredByTheSweep() {
    FunctionRuntime crashing =
        runtime(
            b ->
                b.faultHook(
                    (step, address) -> {
                      if (step == FaultHook.Step.COMMITTED) {
                        throw new QueueBatchContract.SimulatedCrash();
                      }
                    }));
    FunctionRuntime runtime = runtime();
    Address counter = address(TestFunctions.TALLY, "abandoned");
    Address total = Address.of(TestFunctions.TOTAL, "abandoned-" + run);

    assertThrows(
        QueueBatchContract.SimulatedCrash.class,
        () -> crashing.invoke(DirectInvocation.of(countTo(counter, total, 7))));
    assertEquals(1, value(counter, TestFunctions.COUNT), "committed");
    clock.advance(Duration.ofSeconds(30));
    assertEquals(0, runtime.sweepTimers().outboxes(), "not while its batch could still be running");
    clock.advance(Duration.ofMinutes(2));
    SweepResult swept = runtime.sweepTimers();
    drain(runtime);

    assertEquals(1, swept.outboxes());
    assertEquals(List.of(counter.id() + ":7"), counted.texts());
    assertEquals(1, value(total, TestFunctions.COUNT));
    clock.advance(Duration.ofMinutes(5));
    assertEquals(0, runtime.sweepTimers().outboxes(), "delivered once");
    assertEquals(1, counted.deliveries());
  }

  // 5b
  /**
   * The sweep delivers a left-behind outbox even when reading its due delayed messages fails (their
   * partition throttled past every retry): timers go first, and a failure there once kept every
   * sweep from the outboxes.
   */
  @Test
  void aLeftBehindOutboxIsDeliveredThoughTheSweepsTimerReadsFail() {
    FunctionRuntime crashing =
        runtime(
            b ->
                b.faultHook(
                    (step, address) -> {
                      if (step == FaultHook.Step.COMMITTED) {
                        throw new QueueBatchContract.SimulatedCrash();
                      }
                    }));
    FunctionStore timersDown =
        (FunctionStore)
            java.lang.reflect.Proxy.newProxyInstance(
                FunctionStore.class.getClassLoader(),
                new Class<?>[] {FunctionStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("dueTimers")) {
                    throw new StoreUnavailableException("timers' partition throttled", null);
                  }
                  try {
                    return method.invoke(store(), args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    FunctionRuntime sweeping = runtime(b -> b.store(timersDown));
    Address counter = address(TestFunctions.TALLY, "left-behind");
    Address total = Address.of(TestFunctions.TOTAL, "left-behind-" + run);
    assertThrows(
        QueueBatchContract.SimulatedCrash.class,
        () -> crashing.invoke(DirectInvocation.of(countTo(counter, total, 3))));
    clock.advance(Duration.ofMinutes(3));

    assertThrows(StoreUnavailableException.class, sweeping::sweepTimers);
    drain(sweeping);

    assertEquals(1, value(total, TestFunctions.COUNT), "the outbox went out all the same");
  }

  // 6
  @Test
  void anEnvelopeIdIsHonouredOnEveryPathForLambdasRetryHorizon() {
    FunctionRuntime runtime = runtime();
    Address queued = address(TestFunctions.COUNTER, "keyed-queue");
    Address direct = address(TestFunctions.COUNTER, "keyed-direct");
    Message one = MessageBuilder.forAddress(queued).withValue(1L).build();
    String envelope =
        dev.statekit.bus.EnvelopeCodec.renderText(
            queued, one.valueTypeName().asString(), one.rawValue(), "order-1-" + run);
    queue().bus().send(List.of(new BusMessage(Ingress.groupId(queued), "first", envelope)));
    queue().bus().send(List.of(new BusMessage(Ingress.groupId(queued), "second", envelope)));
    drain(runtime);
    assertEquals(1, value(queued, TestFunctions.COUNT), "the same id twice on the queue");

    DirectInvocation keyed =
        DirectInvocation.of(MessageBuilder.forAddress(direct).withValue(1L).build(), "req-" + run);
    assertStatus(DirectResult.Status.APPLIED, runtime.invoke(keyed));
    clock.advance(Duration.ofHours(6));
    assertStatus(DirectResult.Status.DUPLICATE, runtime.invoke(keyed));
    assertEquals(1, value(direct, TestFunctions.COUNT), "a retry six hours later");

    // An id applied from the queue, invoked directly.
    assertStatus(
        DirectResult.Status.DUPLICATE, runtime.invoke(DirectInvocation.of(one, "order-1-" + run)));
    assertEquals(1, value(queued, TestFunctions.COUNT));
  }

  // 7
  @Test
  void egressIsNotRepeatedAfterACleanRestart() {
    Address counter = address(TestFunctions.TALLY, "restarted");
    Address total = Address.of(TestFunctions.TOTAL, "restarted-" + run);
    send(queue(), countTo(counter, total, 1));
    drain(runtime());

    // Each runtime is a fresh process: nothing it delivered is remembered but in the store.
    assertStatus(
        DirectResult.Status.APPLIED,
        runtime().invoke(DirectInvocation.of(countTo(counter, total, 2))));
    send(queue(), countTo(counter, total, 3));
    drain(runtime());

    assertEquals(
        List.of(counter.id() + ":1", counter.id() + ":2", counter.id() + ":3"), counted.texts());
    assertEquals(3, counted.deliveries(), "each record delivered once");
    assertEquals(3, value(total, TestFunctions.COUNT));
  }

  // 8
  @Test
  void aFailedBatchSaysWhichMessageFailedAndWhy() {
    FunctionRuntime runtime = runtime();
    Address flaky = address(TestFunctions.FLAKY, "why");
    enqueue(string(flaky, "fail"));
    enqueue(string(flaky, "ok"));

    QueueBatchResult result = pollAll(runtime);

    assertEquals(2, result.failedMessageIds().size());
    String first = result.failedMessageIds().get(0);
    assertTrue(result.errors().get(first).contains("asked to fail"), result.errors().toString());
    assertTrue(
        result.errors().get(result.failedMessageIds().get(1)).contains(first),
        "the message behind it names the one it waits for: " + result.errors());
  }

  // Found by the simulation.
  @Test
  void aRepeatBehindAFailedMessageDoesNotMoveItsGroupPastIt() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2));
    Address flaky = address(TestFunctions.FLAKY, "behind");
    Message once = string(flaky, "ok");
    sendKeyed(queue(), once, "once-" + run);
    drain(runtime);
    // One applied (so the batch commits), one failing, and the first again behind them (a
    // producer's repeat, dropped by its key).
    enqueue(string(flaky, "ok"));
    enqueue(string(flaky, "fail"));
    sendKeyed(queue(), once, "once-" + run);

    QueueBatchResult first = pollAll(runtime);
    waitForVisibility();
    QueueBatchResult last = pollAll(runtime);

    assertEquals(2, first.failedMessageIds().size(), "the failure and the repeat behind it");
    assertEquals(1, last.deadLettered(), "the failure is dead-lettered on its last attempt");
    // pollAll acknowledges nothing: the applied message comes again too, as a repeat.
    assertEquals(2, last.duplicates(), "and the repeat dropped: " + last);
    assertTrue(deadLetters().peekAll().get(0).getKey().contains("\"value\":\"fail\""));
    assertEquals(2, value(flaky, TestFunctions.COUNT));
  }

  // Found by the simulation.
  @Test
  void aBatchThatRanPastItsRegistrationsTimeCommitsNothing() {
    Duration sweepAfter = Duration.ofMinutes(2);
    FunctionRuntime slow =
        runtime(
            b ->
                b.outboxSweepAfter(sweepAfter)
                    .faultHook(
                        (step, address) -> {
                          if (step == FaultHook.Step.REGISTERED) {
                            clock.advance(sweepAfter);
                          }
                        }));
    Address tally = address(TestFunctions.TALLY, "slow");
    Address total = Address.of(TestFunctions.TOTAL, "slow-" + run);

    DirectResult result = slow.invoke(DirectInvocation.of(countTo(tally, total, 1)));

    assertStatus(DirectResult.Status.FAILED, result);
    assertTrue(result.error().contains("outboxSweepAfter"), result.error());
    assertEquals(0, value(tally, TestFunctions.COUNT), "nothing was written");
    assertStatus(
        DirectResult.Status.APPLIED,
        runtime().invoke(DirectInvocation.of(countTo(tally, total, 1))));
  }

  private void sendKeyed(QueueSource queue, Message message, String key) {
    queue
        .bus()
        .send(
            List.of(
                new BusMessage(
                    Ingress.groupId(message.targetAddress()),
                    java.util.UUID.randomUUID().toString(),
                    dev.statekit.bus.EnvelopeCodec.renderText(
                        message.targetAddress(),
                        message.valueTypeName().asString(),
                        message.rawValue(),
                        key))));
  }

  /** A tally message: {@code tally} counts it, tells {@code total} and reports it to egress. */
  private static Message countTo(Address tally, Address total, long n) {
    return MessageBuilder.forAddress(tally).withValue(total.id() + ":" + n).build();
  }

  private static DirectInvocation command(Address reminder, String command) {
    return DelayedMessagesContract.command(reminder, command);
  }

  private static Message string(Address address, String text) {
    return MessageBuilder.forAddress(address).withValue(text).build();
  }

  private void send(QueueSource queue, Message message) {
    queue
        .bus()
        .send(
            List.of(
                new BusMessage(
                    Ingress.groupId(message.targetAddress()),
                    java.util.UUID.randomUUID().toString(),
                    Ingress.envelope(message))));
  }

  private QueueBatchResult pollAll(FunctionRuntime runtime) {
    List<QueueSource.Received> received = queue().receive(10);
    return runtime.processQueueBatch(received.stream().map(QueueSource.Received::message).toList());
  }

  private void drain(FunctionRuntime runtime, QueueSource queue) {
    LambdaLikeWorker.drain(queue, runtime, 2);
  }
}
