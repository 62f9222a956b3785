package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.TypeName;
import dev.statekit.runtime.bus.BusMessage;
import dev.statekit.types.Types;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Review 10: schedules that break the runtime's promises on this change. Each test fails on the
 * change as it stands; its comment gives the schedule and the promise it breaks.
 */
class Review10DefectsTest extends RuntimeFixture {
  static final TypeName BUGGY = TypeName.of("review", "buggy");
  static final TypeName FANOUT = TypeName.of("review", "fanout");
  static final TypeName BURST = TypeName.of("review", "burst");
  static final TypeName PAIR = TypeName.of("review", "pair");

  /** Whether the deployed {@link #BUGGY} still has its bug (throws on every message). */
  final AtomicBoolean bugged = new AtomicBoolean(true);

  StatefulFunctions reviewFunctions() {
    return StatefulFunctions.builder()
        .withFunction(BUGGY, this::buggy, TestFunctions.COUNT)
        .withFunction(FANOUT, Review10DefectsTest::fanout, TestFunctions.COUNT)
        .withFunction(PAIR, Review10DefectsTest::pair, TestFunctions.COUNT)
        .withFunction(BURST, Review10DefectsTest::burst, TestFunctions.COUNT)
        .withFunction(TestFunctions.TOTAL, TestFunctions::total, TestFunctions.COUNT, TestFunctions.SUM)
        .build();
  }

  /** Counts its messages, but throws while {@link #bugged} (only on "boom", if it is one). */
  void buggy(Context context, Message message) {
    String text = message.asUtf8String();
    if (bugged.get() && !text.equals("ok")) {
      throw new IllegalStateException("a bug, fixed by a later deploy");
    }
    context.storage().set(TestFunctions.COUNT, context.storage().get(TestFunctions.COUNT).orElse(0L) + 1);
  }

  /** {@code <target id>}: tells the BUGGY address of that id once. */
  static void fanout(Context context, Message message) {
    context.storage().set(TestFunctions.COUNT, context.storage().get(TestFunctions.COUNT).orElse(0L) + 1);
    context.send(MessageBuilder.forAddress(BUGGY, message.asUtf8String()).withValue("x").build());
  }

  // D1. Schedule: a queue message's function throws on every attempt; on its last attempt the
  // runtime dead-letters it (statekit.applied=no) and commits the group's mark past it. The bug is
  // fixed by a deploy, and the operator re-sends the dead letter to the ingress queue, as the README
  // says is safe ("a re-sent dead letter is applied only if the original never was"). Its key
  // statekit:seq:<group>:<sequence> is checked against the group mark that the dead-lettering
  // commit moved past that very sequence, so it is dropped as a duplicate: the message is never
  // applied. Broken: nothing lost (a dead letter that says applied=no can never be applied).
  @Test
  void aDeadLetteredQueueMessageSentAgainAfterTheFixIsApplied() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), reviewFunctions());
    Address target = address(BUGGY, "dl-queue");
    send(MessageBuilder.forAddress(target).withValue("x").build());
    for (int i = 0; i < 2; i++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      waitForVisibility();
    }
    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(1, letters.size(), "dead-lettered on its last attempt: " + letters);
    assertEquals("no", letters.get(0).getValue().get("statekit.applied"));

    bugged.set(false);
    resend(target, letters.get(0).getKey());
    drain(runtime);

    assertEquals(
        1,
        value(target, TestFunctions.COUNT),
        "the re-sent dead letter of a message never applied is applied once; dead letter body "
            + letters.get(0).getKey());
  }

  // D1b. The same for a message of another function: a bundle whose receiver dead-letters it on
  // its last attempt moves its mark of the sender past it; the dead letter's key
  // statekit:bundle:<sender>:<version>:<part>:<index> then names a position the mark covers, and
  // the re-sent dead letter is dropped. Broken: nothing lost.
  @Test
  void aDeadLetteredBundledMessageSentAgainAfterTheFixIsApplied() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), reviewFunctions());
    Address sender = address(FANOUT, "dl-sender");
    Address target = Address.of(BUGGY, "dl-bundle-" + run);
    assertTrue(runtime.invoke(DirectInvocation.of(
        MessageBuilder.forAddress(sender).withValue(target.id()).build())).succeeded());
    for (int i = 0; i < 2; i++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      waitForVisibility();
    }
    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(1, letters.size(), "dead-lettered on its last attempt: " + letters);
    assertEquals("no", letters.get(0).getValue().get("statekit.applied"));

    bugged.set(false);
    resend(target, letters.get(0).getKey());
    drain(runtime);

    assertEquals(
        1,
        value(target, TestFunctions.COUNT),
        "the re-sent dead letter is applied once; dead letter body " + letters.get(0).getKey());
  }

  /**
   * {@code arm}: a delayed message to itself in a second ({@code burst}, token "arm"); {@code
   * burst}: twenty delayed messages of 170 KB each, an hour out (each fits a queue message; all
   * together are more than DynamoDB's 4 MB transaction); {@code small}: counts.
   */
  static void burst(Context context, Message message) {
    String command = message.asUtf8String();
    if (command.equals("arm")) {
      context.sendAfter(
          java.time.Duration.ofSeconds(1),
          MessageBuilder.forAddress(context.self()).withValue("burst").build(),
          "arm");
    } else if (command.equals("burst")) {
      String big = "y".repeat(170_000);
      for (int i = 0; i < 20; i++) {
        context.sendAfter(
            java.time.Duration.ofHours(1),
            MessageBuilder.forAddress(context.self()).withValue(big).build());
      }
    } else {
      context.storage().set(TestFunctions.COUNT, context.storage().get(TestFunctions.COUNT).orElse(0L) + 1);
    }
  }

  // D2. Schedule: a delayed message fires, and its function's effects (20 delayed messages of
  // 170 KB, each within a queue message) make a commit past DynamoDB's 4 MB transaction, which
  // CommitShape refuses as INVALID_REQUEST. That is a StoreException, so FailedDeliveries counts it
  // as a passing failure; on the last attempt a fired timer's message is DEFERRED ("its timer sends
  // it again") instead of dead-lettered. The timer stays, the sweep re-sends it every
  // timerResendAfter, and it fails maxAttempts times again: forever, with no dead letter. Broken:
  // nothing stuck ("no timer is resent forever") and failures are visible (it never reaches the
  // dead-letter queue, and it never can succeed). The same effects from an ingress message are
  // retried maxAttempts times before their dead letter, though they can never succeed (the README
  // says effects the runtime refuses go to the dead-letter queue at once).
  @Test
  void aFiredTimerWhoseCommitCanNeverBeWrittenIsDeadLetteredNotResentForever() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), reviewFunctions());
    Address owner = address(BURST, "burst");
    assertTrue(runtime.invoke(DirectInvocation.of(
        MessageBuilder.forAddress(owner).withValue("arm").build())).succeeded());
    int sends = 0;
    List<String> why = new java.util.ArrayList<>();
    for (int round = 0; round < 4; round++) {
      clock.advance(java.time.Duration.ofMinutes(6));
      sends += runtime.sweepTimers().sent();
      for (int i = 0; i < 3; i++) {
        List<QueueSource.Received> batch = queue().receive(10);
        if (!batch.isEmpty()) {
          QueueBatchResult result =
              runtime.processQueueBatch(batch.stream().map(QueueSource.Received::message).toList());
          why.addAll(result.errors().values());
          for (QueueSource.Received r : batch) {
            if (!result.failedMessageIds().contains(r.message().messageId())) {
              queue().delete(r.receiptHandle());
            }
          }
        }
        waitForVisibility();
      }
    }
    int letters = deadLetters().peekAll().size();
    boolean timerLeft =
        ((dev.statekit.runtime.store.InMemoryFunctionStore) store()).allTimers().stream()
            .anyMatch(t -> t.body().contains("\"burst\"") || t.body().contains("burst"));
    assertTrue(
        letters == 1 && !timerLeft,
        "a message that can never be committed reaches the dead-letter queue once and its timer"
            + " goes; got "
            + letters
            + " dead letters, the timer "
            + (timerLeft ? "still pending" : "gone")
            + ", sent by the sweep "
            + sends
            + " times; errors: "
            + why.stream().map(e -> e.substring(0, Math.min(160, e.length()))).distinct().toList());
  }

  // D3. Schedule: one batch holds, for one address, a poison message on its last attempt and a
  // fresh message (first attempt) whose commit emits an egress record. The sink refuses once (a
  // passing blip) and takes everything after. Because *some* message of the address is on its last
  // attempt, BatchProcessor dead-letters the fresh record after that single try (its dead letter
  // saying statekit.attempts=2), and it is never delivered though the sink is back a moment later.
  // Broken: nothing lost / failures visible as documented ("once tried maxAttempts times, what did
  // not go out is dead-lettered"): a deliverable committed effect goes to the dead-letter queue
  // after one try, with a false attempt count.
  @Test
  void aFreshEffectIsNotDeadLetteredAfterOneTryBecauseAnotherMessageIsOnItsLastAttempt() {
    java.util.concurrent.atomic.AtomicInteger refusals = new java.util.concurrent.atomic.AtomicInteger(1);
    dev.statekit.egress.CollectingEgressSink taken = new dev.statekit.egress.CollectingEgressSink();
    dev.statekit.egress.EgressSink blip =
        records -> {
          if (refusals.getAndDecrement() > 0) {
            throw new dev.statekit.egress.EgressException(
                dev.statekit.egress.EgressException.Reason.UNAVAILABLE, "a passing blip", null);
          }
          taken.deliver(records);
        };
    FunctionRuntime runtime =
        runtime(
            b ->
                b.maxAttempts(2)
                    .egress(
                        dev.statekit.egress.EgressRoutes.builder()
                            .route(TestFunctions.COUNTED, blip)
                            .build()));
    Address tally = address(TestFunctions.TALLY, "blip");
    Address total = Address.of(TestFunctions.TOTAL, "blip-" + run);
    send(MessageBuilder.forAddress(tally).withValue("garbage").build()); // throws: poison
    LambdaLikeWorker.pollOnce(queue(), runtime); // its first attempt fails
    send(MessageBuilder.forAddress(tally).withValue(total.id() + ":1").build());
    waitForVisibility();

    LambdaLikeWorker.pollOnce(queue(), runtime); // the poison's last attempt, the fresh one's first
    drain(runtime);
    clock.advance(java.time.Duration.ofMinutes(3));
    runtime.sweepTimers();
    drain(runtime);

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    List<Map<String, String>> egressLetters =
        letters.stream().map(Map.Entry::getValue).filter(a -> "egress".equals(a.get("statekit.kind"))).toList();
    assertEquals(
        List.of(tally.id() + ":1"),
        taken.texts(),
        "the record is delivered once the sink is back; egress dead letters: " + egressLetters);
    assertEquals(List.of(), egressLetters);
  }

  /** {@code <target id>}: tells the BUGGY address of that id "ok" and then "boom" (one bundle). */
  static void pair(Context context, Message message) {
    context.send(MessageBuilder.forAddress(BUGGY, message.asUtf8String()).withValue("ok").build());
    context.send(MessageBuilder.forAddress(BUGGY, message.asUtf8String()).withValue("boom").build());
  }

  // D4. Schedule: one commit of a sender sends two messages to one target: one bundle, one queue
  // message. The target applies the first and its function throws on the second (a passing
  // failure, not the last attempt). The first's effects commit (the bundle's sender mark says 1
  // applied) but the group's sequence mark rightly stays before the message, which comes again
  // 30 s later. On that redelivery the bundle is a first send younger than four minutes, so
  // RepeatFilter neither looks up nor checks the sender mark (mayBeRepeat is false), and the
  // group's mark does not cover it: the first message runs again. Broken: exactly once (a message
  // of another function applied twice).
  @Test
  void aBundlePartlyAppliedBeforeAFailureIsNotAppliedAgainWhenItComesBack() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), reviewFunctions());
    Address sender = address(PAIR, "pair");
    Address target = Address.of(BUGGY, "pair-target-" + run);
    assertTrue(runtime.invoke(DirectInvocation.of(
        MessageBuilder.forAddress(sender).withValue(target.id()).build())).succeeded());
    QueueBatchResult first = pollOnce(runtime);
    assertEquals(1, first.failedMessageIds().size(), "the bundle fails on its second message");
    assertEquals(1, value(target, TestFunctions.COUNT), "its first message is committed");

    bugged.set(false);
    waitForVisibility();
    drain(runtime);

    assertEquals(
        2, value(target, TestFunctions.COUNT), "each of the bundle's two messages applied once");
  }

  QueueBatchResult pollOnce(FunctionRuntime runtime) {
    List<QueueSource.Received> batch = queue().receive(10);
    QueueBatchResult result =
        runtime.processQueueBatch(batch.stream().map(QueueSource.Received::message).toList());
    for (QueueSource.Received r : batch) {
      if (!result.failedMessageIds().contains(r.message().messageId())) {
        queue().delete(r.receiptHandle());
      }
    }
    return result;
  }

  // D1c. The same key fails without any commit that records the message: the store is down for
  // both of a queue message's attempts, so on the last one FailedDeliveries dead-letters it with
  // statekit.applied=unknown and key statekit:seq:<group>:<sequence> (nothing was written). The
  // store comes back and the address applies the next message of its group, which moves the
  // group's high-water mark past the dead-lettered sequence. The re-sent dead letter is then taken
  // for applied and dropped, though the original never was. A group's sequence mark cannot tell a
  // skipped (dead-lettered) message from an applied one. Broken: nothing lost.
  @Test
  void aDeadLetterSentAgainAfterALaterMessageOfItsGroupIsApplied() {
    AtomicBoolean storeDown = new AtomicBoolean(true);
    FunctionRuntime runtime =
        runtime(b -> b.maxAttempts(2).store(failingLoads(store(), storeDown)), reviewFunctions());
    bugged.set(false);
    Address target = address(BUGGY, "dl-outage");
    send(MessageBuilder.forAddress(target).withValue("first").build());
    for (int i = 0; i < 2; i++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      waitForVisibility();
    }
    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(1, letters.size(), "dead-lettered on its last attempt: " + letters);
    assertEquals("unknown", letters.get(0).getValue().get("statekit.applied"));
    storeDown.set(false);
    send(MessageBuilder.forAddress(target).withValue("second").build());
    drain(runtime);
    assertEquals(1, value(target, TestFunctions.COUNT));

    resend(target, letters.get(0).getKey());
    drain(runtime);

    assertEquals(
        2,
        value(target, TestFunctions.COUNT),
        "the re-sent dead letter of the first message, never applied, is applied; its body "
            + letters.get(0).getKey());
  }

  // D1d. The sender's side: a commit's bundle cannot be sent (the queue refuses sends to its
  // target) until the sending message's last attempt, so the sender dead-letters the bundle's
  // message (applied=unknown, key statekit:bundle:<sender>:<version>:<part>:<index>) and carries on,
  // as the README says. Its next commit's bundle reaches the target and is applied, which moves the
  // target's mark of that sender past the dead-lettered version. The re-sent dead letter is then
  // dropped as a repeat: the message, never delivered, is lost. Broken: nothing lost.
  @Test
  void aSendersDeadLetteredBundleSentAgainAfterItsNextBundleIsApplied() {
    AtomicBoolean refuse = new AtomicBoolean(true);
    Address target = Address.of(BUGGY, "dl-sender-side-" + run);
    dev.statekit.runtime.bus.MessageBus real = queue().bus();
    dev.statekit.runtime.bus.MessageBus refusing =
        new dev.statekit.runtime.bus.MessageBus() {
          @Override
          public void send(List<BusMessage> messages) {
            java.util.Set<Integer> failed = new java.util.HashSet<>();
            List<BusMessage> through = new java.util.ArrayList<>();
            for (int i = 0; i < messages.size(); i++) {
              if (refuse.get() && messages.get(i).groupId().equals(Ingress.groupId(target))) {
                failed.add(i);
              } else {
                through.add(messages.get(i));
              }
            }
            if (!through.isEmpty()) {
              real.send(through);
            }
            if (!failed.isEmpty()) {
              throw new dev.statekit.runtime.bus.BusException(
                  dev.statekit.StateKitException.Reason.UNAVAILABLE, "the queue refuses", failed, null);
            }
          }

          @Override
          public int maxMessageBytes() {
            return real.maxMessageBytes();
          }
        };
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2).queue(refusing), reviewFunctions());
    bugged.set(false);
    Address sender = address(FANOUT, "dl-sender-side");
    send(MessageBuilder.forAddress(sender).withValue(target.id()).build());
    for (int i = 0; i < 2; i++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      waitForVisibility();
    }
    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(1, letters.size(), "the undeliverable bundle's message, dead-lettered: " + letters);
    refuse.set(false);
    send(MessageBuilder.forAddress(sender).withValue(target.id()).build());
    drain(runtime);
    assertEquals(1, value(target, TestFunctions.COUNT), "the next bundle arrived");

    resend(target, letters.get(0).getKey());
    drain(runtime);

    assertEquals(
        2,
        value(target, TestFunctions.COUNT),
        "the re-sent dead letter of the message that never arrived is applied; its body "
            + letters.get(0).getKey());
  }

  /** {@code store}, whose batch reads fail while {@code down}. */
  static dev.statekit.runtime.store.FunctionStore failingLoads(
      dev.statekit.runtime.store.FunctionStore store, AtomicBoolean down) {
    return (dev.statekit.runtime.store.FunctionStore)
        java.lang.reflect.Proxy.newProxyInstance(
            Review10DefectsTest.class.getClassLoader(),
            new Class<?>[] {dev.statekit.runtime.store.FunctionStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("load") && down.get()) {
                throw new dev.statekit.runtime.store.StoreUnavailableException(
                    "DynamoDB kept refusing (test outage)", null);
              }
              try {
                return method.invoke(store, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  // D7. Schedule: a function registered with a supplier (StatefulFunctionSpec.withSupplier: "called
  // once per batch") whose supplier throws for good (a bug in its constructor, a missing
  // configuration). InvocationRunner catches the FunctionInvocationException of engine.open and
  // settles every invocation FAILED, also on its last attempt: the message never reaches
  // FailedDeliveries or a dead letter, comes back past maxAttempts on every receive, and SQS's
  // redrive finally moves it to the dead-letter queue with no word of why. Broken: failures are
  // visible ("every failure of a queue message counts toward maxAttempts ... on its last attempt it
  // is dead-lettered with its error instead, so that the queue's own redrive never moves it without
  // one").
  @Test
  void aMessageWhoseFunctionCannotBeMadeIsDeadLetteredWithItsErrorBeforeTheRedrive() {
    TypeName broken = TypeName.of("review", "unbuildable");
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(
                dev.statekit.function.StatefulFunctionSpec.builder(broken)
                    .withValueSpecs(TestFunctions.COUNT)
                    .withSupplier(
                        () -> {
                          throw new IllegalStateException("the function's constructor fails");
                        })
                    .build())
            .build();
    QueueSource queue = servers().newQueue("redriven", deadLetters(), 4);
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2).queue(queue.bus()), functions);
    Address target = address(broken, "unbuildable");
    queue.bus().send(List.of(new BusMessage(Ingress.groupId(target), UUID.randomUUID().toString(),
        Ingress.envelope(MessageBuilder.forAddress(target).withValue("x").build()))));

    for (int receive = 0; receive < 6; receive++) {
      LambdaLikeWorker.pollOnce(queue, runtime);
      waitForVisibility();
    }

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(0, queue.peekAll().size(), "settled before the redrive");
    assertEquals(1, letters.size(), "one dead letter: " + letters);
    assertTrue(
        letters.get(0).getValue().containsKey("statekit.error"),
        "the dead letter carries its error (it came through the queue's redrive instead): "
            + letters);
  }

  // ---------------------------------------------------------------------------------------------

  void resend(Address target, String body) {
    queue().bus().send(List.of(new BusMessage(Ingress.groupId(target), UUID.randomUUID().toString(), body)));
  }

  void send(Message message) {
    queue()
        .bus()
        .send(
            List.of(
                new BusMessage(
                    Ingress.groupId(message.targetAddress()),
                    UUID.randomUUID().toString(),
                    Ingress.envelope(message))));
  }

  long value(Address address, dev.statekit.function.ValueSpec<Long> spec) {
    var value = store().reload(address).values().get(spec.name());
    return value == null ? 0 : Types.longType().deserialize(value.bytes());
  }
}
