package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.BusMessage;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * How the runtime handles failures that are not a plain exception of a function: dead letters sent
 * to the ingress queue again, commits DynamoDB can never take, effects that fail once, bundles that
 * fail half way, functions that cannot be made. Each schedule broke a promise once (exactly once,
 * nothing lost, nothing stuck, failures visible) and keeps it now; the in-memory and real-server
 * subclasses run the same schedules.
 */
abstract class FailureHandlingContract extends RuntimeFixture {
  static final TypeName BUGGY = TypeName.of("review", "buggy");
  static final TypeName FANOUT = TypeName.of("review", "fanout");
  static final TypeName BURST = TypeName.of("review", "burst");
  static final TypeName PAIR = TypeName.of("review", "pair");

  /** Whether the deployed {@link #BUGGY} still has its bug (throws on every message). */
  final AtomicBoolean bugged = new AtomicBoolean(true);

  StatefulFunctions failingFunctions() {
    return StatefulFunctions.builder()
        .withFunction(BUGGY, this::buggy, TestFunctions.COUNT)
        .withFunction(FANOUT, FailureHandlingContract::fanout, TestFunctions.COUNT)
        .withFunction(PAIR, FailureHandlingContract::pair, TestFunctions.COUNT)
        .withFunction(BURST, FailureHandlingContract::burst, TestFunctions.COUNT)
        .withFunction(
            TestFunctions.TOTAL, TestFunctions::total, TestFunctions.COUNT, TestFunctions.SUM)
        .build();
  }

  /** Counts its messages, but throws while {@link #bugged} (only on "boom", if it is one). */
  void buggy(Context context, Message message) {
    String text = message.asUtf8String();
    if (bugged.get() && !text.equals("ok")) {
      throw new IllegalStateException("a bug, fixed by a later deploy");
    }
    context
        .storage()
        .set(TestFunctions.COUNT, context.storage().get(TestFunctions.COUNT).orElse(0L) + 1);
  }

  /** {@code <target id>}: tells the BUGGY address of that id once. */
  static void fanout(Context context, Message message) {
    context
        .storage()
        .set(TestFunctions.COUNT, context.storage().get(TestFunctions.COUNT).orElse(0L) + 1);
    context.send(MessageBuilder.forAddress(BUGGY, message.asUtf8String()).withValue("x").build());
  }

  // A message whose function throws on every attempt is dead-lettered (applied "no") by a commit
  // that moves its group's mark past it. Sent again after the fix, it is applied: its key is its
  // own, not one checked against the group's mark.
  @Test
  void aDeadLetteredQueueMessageSentAgainAfterTheFixIsApplied() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), failingFunctions());
    Address target = address(BUGGY, "dl-queue");
    enqueue(MessageBuilder.forAddress(target).withValue("x").build());
    fixAndSendTheDeadLetterAgain(runtime, target);
  }

  // The same for a message of another function, whose dead-lettering moves the receiver's mark of
  // that sender past it.
  @Test
  void aDeadLetteredBundledMessageSentAgainAfterTheFixIsApplied() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), failingFunctions());
    Address sender = address(FANOUT, "dl-sender");
    Address target = Address.of(BUGGY, "dl-bundle-" + run);
    invokeSender(runtime, sender, target);
    fixAndSendTheDeadLetterAgain(runtime, target);
  }

  /** Invokes {@code sender} directly, naming the id of the {@code target} it sends to. */
  private static void invokeSender(FunctionRuntime runtime, Address sender, Address target) {
    assertTrue(
        runtime
            .invoke(
                DirectInvocation.of(
                    MessageBuilder.forAddress(sender).withValue(target.id()).build()))
            .succeeded());
  }

  /** Two failing attempts dead-letter the message; sent again after the fix, it applies once. */
  private void fixAndSendTheDeadLetterAgain(FunctionRuntime runtime, Address target) {
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
      context
          .storage()
          .set(TestFunctions.COUNT, context.storage().get(TestFunctions.COUNT).orElse(0L) + 1);
    }
  }

  // A fired delayed message whose effects (20 delayed messages of 170 KB) make a commit larger than
  // DynamoDB's 4 MB transaction can never be committed: it is dead-lettered once, and its timer
  // goes, instead of being sent again by the sweep forever.
  @Test
  void aFiredTimerWhoseCommitCanNeverBeWrittenIsDeadLetteredNotResentForever() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), failingFunctions());
    Address owner = address(BURST, "burst");
    assertTrue(
        runtime
            .invoke(DirectInvocation.of(MessageBuilder.forAddress(owner).withValue("arm").build()))
            .succeeded());
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
    clock.advance(java.time.Duration.ofMinutes(10));
    int sentLater = runtime.sweepTimers().sent();
    assertTrue(
        letters == 1 && sentLater == 0,
        "a message that can never be committed reaches the dead-letter queue once and its timer"
            + " goes; got "
            + letters
            + " dead letters, the timer sent again "
            + sentLater
            + " times later, sent by the sweep "
            + sends
            + " times before; errors: "
            + why.stream().map(e -> e.substring(0, Math.min(160, e.length()))).distinct().toList());
  }

  // A fresh message's egress record that the sink refuses once is tried again and delivered, even
  // though another message of its address, in the same batch, is on its last attempt: an outbox's
  // tries are its own.
  @Test
  void aFreshEffectIsNotDeadLetteredAfterOneTryBecauseAnotherMessageIsOnItsLastAttempt() {
    java.util.concurrent.atomic.AtomicInteger refusals =
        new java.util.concurrent.atomic.AtomicInteger(1);
    dev.statekit.egress.CollectingEgressSink taken = new dev.statekit.egress.CollectingEgressSink();
    dev.statekit.egress.EgressSink blip =
        records -> {
          if (refusals.getAndDecrement() > 0) {
            throw new dev.statekit.egress.EgressException(
                dev.statekit.egress.EgressException.Reason.UNAVAILABLE, "a passing blip", null);
          }
          taken.deliver(records);
        };
    FunctionRuntime runtime = countingTo(blip);
    Address tally = address(TestFunctions.TALLY, "blip");
    Address total = Address.of(TestFunctions.TOTAL, "blip-" + run);
    enqueue(MessageBuilder.forAddress(tally).withValue("garbage").build()); // throws: poison
    LambdaLikeWorker.pollOnce(queue(), runtime); // its first attempt fails
    enqueue(MessageBuilder.forAddress(tally).withValue(total.id() + ":1").build());
    waitForVisibility();

    LambdaLikeWorker.pollOnce(queue(), runtime); // the poison's last attempt, the fresh one's first
    drain(runtime);
    clock.advance(java.time.Duration.ofMinutes(3));
    runtime.sweepTimers();
    drain(runtime);

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    List<Map<String, String>> egressLetters =
        letters.stream()
            .map(Map.Entry::getValue)
            .filter(a -> "egress".equals(a.get("statekit.kind")))
            .toList();
    assertEquals(
        List.of(tally.id() + ":1"),
        taken.texts(),
        "the record is delivered once the sink is back; egress dead letters: " + egressLetters);
    assertEquals(List.of(), egressLetters);
  }

  // A sink refuses a whole call for one record it can never take (SqsEgressSink and
  // KinesisEgressSink do so for a record past their size): the other addresses' records of that
  // call are delivered, and only the refused one is dead-lettered. They used to fail with it on
  // every try and be dead-lettered beside it, never delivered.
  @Test
  void anEgressRecordASinkRefusesFailsAloneNotTheRecordsDeliveredBesideIt() {
    dev.statekit.egress.CollectingEgressSink taken = new dev.statekit.egress.CollectingEgressSink();
    dev.statekit.egress.EgressSink picky =
        records -> {
          for (dev.statekit.egress.EgressRecord record : records) {
            if (new String(record.value(), java.nio.charset.StandardCharsets.UTF_8)
                .contains("too-big")) {
              throw new dev.statekit.egress.EgressException(
                  dev.statekit.egress.EgressException.Reason.INVALID_REQUEST,
                  "Egress record " + record.id() + " is more than the sink takes",
                  null);
            }
          }
          taken.deliver(records);
        };
    FunctionRuntime runtime = countingTo(picky);
    Address big = address(TestFunctions.TALLY, "too-big");
    Address fine = address(TestFunctions.TALLY, "fine");
    Address total = Address.of(TestFunctions.TOTAL, "picky-" + run);
    enqueue(MessageBuilder.forAddress(big).withValue(total.id() + ":1").build());
    enqueue(MessageBuilder.forAddress(fine).withValue(total.id() + ":2").build());
    for (int round = 0; round < 4; round++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      drain(runtime);
      clock.advance(java.time.Duration.ofMinutes(3));
      runtime.sweepTimers();
      drain(runtime);
      waitForVisibility();
    }

    assertEquals(List.of(fine.id() + ":2"), taken.texts(), "the record beside it is delivered");
    List<String> egressLetters =
        deadLetters().peekAll().stream()
            .map(Map.Entry::getValue)
            .filter(a -> "egress".equals(a.get("statekit.kind")))
            .map(a -> a.get("statekit.error"))
            .toList();
    assertEquals(1, egressLetters.size(), "only the refused record is dead-lettered");
    assertTrue(egressLetters.get(0).contains("too-big"), egressLetters.get(0));
  }

  /** A runtime of two attempts whose {@link TestFunctions#COUNTED} records go to {@code sink}. */
  private FunctionRuntime countingTo(dev.statekit.egress.EgressSink sink) {
    return runtime(
        b ->
            b.maxAttempts(2)
                .egress(
                    dev.statekit.egress.EgressRoutes.builder()
                        .route(TestFunctions.COUNTED, sink)
                        .build()));
  }

  /** {@code <target id>}: tells the BUGGY address of that id "ok" and then "boom" (one bundle). */
  static void pair(Context context, Message message) {
    context.send(MessageBuilder.forAddress(BUGGY, message.asUtf8String()).withValue("ok").build());
    context.send(
        MessageBuilder.forAddress(BUGGY, message.asUtf8String()).withValue("boom").build());
  }

  // A bundle of two messages whose first is applied and committed and whose second fails comes
  // again soon after its commit: its first message is not applied again.
  @Test
  void aBundlePartlyAppliedBeforeAFailureIsNotAppliedAgainWhenItComesBack() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), failingFunctions());
    Address sender = address(PAIR, "pair");
    Address target = Address.of(BUGGY, "pair-target-" + run);
    invokeSender(runtime, sender, target);
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

  // A message dead-lettered because the store was down on every attempt (applied "unknown",
  // nothing written) is applied when sent again, though a later message of its group moved the
  // group's mark past it meanwhile.
  @Test
  void aDeadLetterSentAgainAfterALaterMessageOfItsGroupIsApplied() {
    AtomicBoolean storeDown = new AtomicBoolean(true);
    FunctionRuntime runtime =
        runtime(b -> b.maxAttempts(2).store(failingLoads(store(), storeDown)), failingFunctions());
    bugged.set(false);
    Address target = address(BUGGY, "dl-outage");
    enqueue(MessageBuilder.forAddress(target).withValue("first").build());
    for (int i = 0; i < 2; i++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      waitForVisibility();
    }
    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(1, letters.size(), "dead-lettered on its last attempt: " + letters);
    assertEquals("unknown", letters.get(0).getValue().get("statekit.applied"));
    storeDown.set(false);
    enqueue(MessageBuilder.forAddress(target).withValue("second").build());
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

  // The sender's side: a bundle the queue refused until the sending message's last attempt is
  // dead-lettered by the sender; sent again after the sender's next bundle was applied, it is
  // applied.
  @Test
  void aSendersDeadLetteredBundleSentAgainAfterItsNextBundleIsApplied() {
    AtomicBoolean refuse = new AtomicBoolean(true);
    Address target = Address.of(BUGGY, "dl-sender-side-" + run);
    dev.statekit.bus.MessageBus real = queue().bus();
    dev.statekit.bus.MessageBus refusing =
        new dev.statekit.bus.MessageBus() {
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
              throw new dev.statekit.bus.BusException(
                  dev.statekit.StateKitException.Reason.UNAVAILABLE,
                  "the queue refuses",
                  failed,
                  null);
            }
          }

          @Override
          public int maxMessageBytes() {
            return real.maxMessageBytes();
          }
        };
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2).queue(refusing), failingFunctions());
    bugged.set(false);
    Address sender = address(FANOUT, "dl-sender-side");
    enqueue(MessageBuilder.forAddress(sender).withValue(target.id()).build());
    for (int i = 0; i < 2; i++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      waitForVisibility();
    }
    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(
        1, letters.size(), "the undeliverable bundle's message, dead-lettered: " + letters);
    refuse.set(false);
    enqueue(MessageBuilder.forAddress(sender).withValue(target.id()).build());
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
            FailureHandlingContract.class.getClassLoader(),
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

  // A function whose supplier throws for good is dead-lettered by the runtime, with its error, on
  // its last attempt: the queue's redrive never moves it there without one.
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
    queue
        .bus()
        .send(
            List.of(
                new BusMessage(
                    Ingress.groupId(target),
                    UUID.randomUUID().toString(),
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

  // A message received again after its last attempt (that attempt died, or sent its dead letter
  // and lost the answer) is dead-lettered, not applied: a dead letter already out says it was not.
  @Test
  void aMessageReceivedPastItsLastAttemptIsDeadLetteredNotApplied() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), failingFunctions());
    bugged.set(false);
    Address target = address(BUGGY, "past-last");
    enqueue(MessageBuilder.forAddress(target).withValue("x").build());
    for (int i = 0; i < 2; i++) {
      assertEquals(1, queue().receive(10).size(), "an attempt whose process dies");
      waitForVisibility();
    }

    drain(runtime);

    assertEquals(0, value(target, TestFunctions.COUNT), "not applied past its last attempt");
    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(1, letters.size(), "dead-lettered: " + letters);
    assertEquals("no", letters.get(0).getValue().get("statekit.applied"));
    assertTrue(
        letters.get(0).getValue().get("statekit.error").contains("past its last attempt"),
        "says why: " + letters.get(0).getValue());
  }

  // A message applied by a receive whose delete was lost comes again, in one batch with a later
  // message of its address whose commit DynamoDB refuses however often it is sent. The refusal
  // dead-letters every delivery of the address "no", the repeat too: a message applied once and
  // dead-lettered as applied nowhere (sending that letter again applies it a second time).
  @Test
  void aRepeatInABatchWhoseCommitIsRefusedIsNotDeadLetteredAsNotApplied() {
    AtomicBoolean refusing = new AtomicBoolean(false);
    FunctionRuntime runtime =
        runtime(
            b -> b.maxAttempts(5).store(refusingCommits(store(), refusing)), failingFunctions());
    Address owner = address(BURST, "repeat");
    enqueue(MessageBuilder.forAddress(owner).withValue("small").build());
    List<QueueSource.Received> first = queue().receive(10);
    assertEquals(1, first.size());
    QueueBatchResult applied =
        runtime.processQueueBatch(first.stream().map(QueueSource.Received::message).toList());
    assertEquals(1, applied.applied(), "applied; its delete is lost");
    assertEquals(1, value(owner, TestFunctions.COUNT));
    enqueue(MessageBuilder.forAddress(owner).withValue("second").build());
    waitForVisibility();
    refusing.set(true);

    drain(runtime);

    assertEquals(1, value(owner, TestFunctions.COUNT), "applied once");
    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    for (Map.Entry<String, Map<String, String>> letter : letters) {
      assertTrue(
          !letter.getKey().contains("\"small\"")
              || !"no".equals(letter.getValue().get("statekit.applied")),
          "the applied message is dead-lettered as applied nowhere: " + letter);
    }
  }

  static dev.statekit.runtime.store.FunctionStore refusingCommits(
      dev.statekit.runtime.store.FunctionStore store, AtomicBoolean refusing) {
    return (dev.statekit.runtime.store.FunctionStore)
        java.lang.reflect.Proxy.newProxyInstance(
            FailureHandlingContract.class.getClassLoader(),
            new Class<?>[] {dev.statekit.runtime.store.FunctionStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("commit") && refusing.get()) {
                throw new dev.statekit.runtime.store.StoreException(
                    dev.statekit.StateKitException.Reason.INVALID_REQUEST,
                    "ValidationException: refused however often it is sent (test)");
              }
              try {
                return method.invoke(store, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  // ---------------------------------------------------------------------------------------------

  void resend(Address target, String body) {
    queue()
        .bus()
        .send(List.of(new BusMessage(Ingress.groupId(target), UUID.randomUUID().toString(), body)));
  }
}
