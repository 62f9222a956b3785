package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.Reply;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.runtime.internal.FaultHook;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.CommitConflictException;
import dev.statekit.runtime.store.FunctionStore;
import dev.statekit.runtime.store.LoadResult;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A batch whose messages to one address take more than one commit (BatchProcessor's rounds), under
 * faults: a crash at every step of either round with the batch handed over again, a copy of the
 * batch at another instance during the second round, retried calls, delayed messages set, cancelled
 * and fired across rounds, a function throwing in a later round, messages on their last attempt; a
 * valid message beside a large message dead-lettered on its last attempt (its dead letter, the
 * message whole, takes room in the commit too); and a delayed message dead-lettered without running
 * (its effects refused), whose timer change and token must be accounted for like a fired one's.
 */
abstract class CommitRoundFaultsContract extends RuntimeFixture {
  static final TypeName PICKY = TypeName.of("test", "picky");
  static final TypeName ROOM = TypeName.of("test", "room");
  static final ValueSpec<Long> COUNT = ValueSpec.named("count").withLongType();

  /** Pads egress records: three fit one commit, four do not. */
  static final int PAD = 130_000;

  /**
   * {@code cmd:pad:tag[:token]}: {@code e} counts and sends an egress record "tag" padded with pad
   * characters, replying "tag@count"; {@code set} also sets a delayed message (one minute) to
   * itself with the token; {@code cancel} also cancels the token; {@code fire} (the delayed
   * message) sends "fired tag" to FIRED; {@code fail} throws.
   */
  static void room(Context context, Message message) {
    String[] parts = message.asUtf8String().split(":", 4);
    String cmd = parts[0];
    int pad = Integer.parseInt(parts[1]);
    String tag = parts[2];
    if (cmd.equals("fail")) {
      throw new IllegalStateException("room asked to fail " + tag);
    }
    if (cmd.equals("bad")) {
      // An egress without a route: the runtime refuses the message's effects.
      context.send(
          EgressMessageBuilder.forEgress(TypeName.of("test", "nowhere")).withValue(tag).build());
      return;
    }
    if (cmd.equals("many")) {
      for (int i = 0; i < Integer.parseInt(parts[3]); i++) {
        context.sendAfter(
            Duration.ofHours(1),
            MessageBuilder.forAddress(context.self()).withValue("e:0:" + tag + "-" + i).build());
      }
    }
    if (cmd.equals("setodd")) {
      // A token cut inside a character (no message text can carry one), or one too long.
      String token = parts[3].equals("long") ? "t".repeat(1_025) : parts[3] + "\uD83D";
      context.sendAfter(
          Duration.ofMinutes(1),
          MessageBuilder.forAddress(context.self()).withValue("fire:0:" + tag).build(),
          token);
    }
    if (cmd.equals("setbad")) {
      context.sendAfter(
          Duration.ofMinutes(1),
          MessageBuilder.forAddress(context.self()).withValue("bad:0:" + tag).build(),
          parts[3]);
    }
    long count = context.storage().get(COUNT).orElse(0L) + 1;
    context.storage().set(COUNT, count);
    if (cmd.equals("fire")) {
      context.send(
          EgressMessageBuilder.forEgress(TestFunctions.FIRED).withValue("fired " + tag).build());
      return;
    }
    context.send(
        EgressMessageBuilder.forEgress(TestFunctions.COUNTED)
            .withValue(tag + ":" + "x".repeat(pad))
            .build());
    if (cmd.equals("set")) {
      context.sendAfter(
          Duration.ofMinutes(1),
          MessageBuilder.forAddress(context.self()).withValue("fire:0:" + parts[3]).build(),
          parts[3]);
    } else if (cmd.equals("cancel")) {
      context.cancelDelayedMessage(parts[3]);
    }
    context.send(EgressMessageBuilder.forEgress(Reply.EGRESS).withValue(tag + "@" + count).build());
  }

  /** A number {@code n}: counts and sends an egress record of n characters. A string: throws. */
  static void picky(Context context, Message message) {
    if (message.isUtf8String()) {
      throw new IllegalStateException("picky refuses strings");
    }
    context.storage().set(COUNT, context.storage().get(COUNT).orElse(0L) + 1);
    context.send(
        EgressMessageBuilder.forEgress(TestFunctions.COUNTED)
            .withValue("x".repeat((int) message.asLong()))
            .build());
  }

  static StatefulFunctions functions() {
    return StatefulFunctions.builder()
        .withFunction(PICKY, CommitRoundFaultsContract::picky, COUNT)
        .withFunction(ROOM, CommitRoundFaultsContract::room, COUNT)
        .build();
  }

  /**
   * A poison message with a 200 KB body on its last attempt (its dead letter, the body whole, goes
   * in the commit's outbox) and a valid message sending a 250 KB egress record, to one address in
   * one batch. Each alone fits a commit; together they do not. The valid one must run in a commit
   * of its own (a later round), not be dead-lettered as "state too large"; in either order.
   */
  @ParameterizedTest(name = "poison first: {0}")
  @ValueSource(booleans = {true, false})
  void aValidMessageBesideALargePoisonMessageOnItsLastAttemptIsAppliedNotDeadLettered(
      boolean poisonFirst) {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(1), functions());
    Address picky = address(PICKY, "poison-" + poisonFirst);
    Message poison = MessageBuilder.forAddress(picky).withValue("p".repeat(200_000)).build();
    Message valid = MessageBuilder.forAddress(picky).withValue(250_000L).build();
    enqueue(poisonFirst ? poison : valid);
    enqueue(poisonFirst ? valid : poison);

    drain(runtime);

    List<String> letters = deadLetterErrors();
    assertEquals(1, letters.size(), letters::toString);
    assertEquals(
        1,
        letters.stream().filter(l -> l.contains("picky refuses strings")).count(),
        "the poison message's dead letter, with its error: " + letters);
    assertEquals(1, value(picky, COUNT), "the valid message applied");
    assertEquals(1, counted.records().size(), "its egress record delivered");
  }

  /**
   * The same with a message whose effects the runtime refuses (an egress without a route): it is
   * dead-lettered without running, its 200 KB body whole in the commit's outbox. Before, its dead
   * letter was not counted in what takes the commit's room, and the valid message was dead-lettered
   * as "state too large" in its place.
   */
  @ParameterizedTest(name = "refused first: {0}")
  @ValueSource(booleans = {true, false})
  void aValidMessageBesideALargeMessageWhoseEffectsAreRefusedIsApplied(boolean refusedFirst) {
    FunctionRuntime runtime = runtime(b -> {}, functions());
    Address room = address(ROOM, "refused-" + refusedFirst);
    Message refused =
        MessageBuilder.forAddress(room).withValue("bad:0:" + "p".repeat(200_000)).build();
    Message valid = MessageBuilder.forAddress(room).withValue("e:250000:valid").build();
    enqueue(refusedFirst ? refused : valid);
    enqueue(refusedFirst ? valid : refused);

    drain(runtime);

    List<String> letters = deadLetterErrors();
    assertEquals(1, letters.size(), () -> "only the refused one: " + shorten(letters));
    assertTrue(letters.get(0).contains("test/nowhere"), () -> shorten(letters).toString());
    assertEquals(1, value(room, COUNT), "the valid message applied");
    assertEquals(1, counted.records().size(), "its egress record delivered");
  }

  private static List<String> shorten(List<String> letters) {
    return letters.stream().map(l -> l.substring(0, Math.min(200, l.length()))).toList();
  }

  // ---- 1. a crash at each step of a batch that runs in two rounds; the batch comes again ----

  /**
   * Five queued messages, three per commit: round 1 commits three, round 2 two. The process dies at
   * the {@code occurrence}th {@code step} (1: round 1, 2: round 2); the whole batch comes again to
   * another instance (and the sweep runs). Each message is applied once, each egress record exists
   * once by id, nothing is dead-lettered.
   */
  @ParameterizedTest
  @CsvSource({
    "COMMITTED,1",
    "DELIVERED,1",
    "SETTLED,1",
    "LOADED,2",
    "REGISTERED,2",
    "COMMITTED,2",
    "DELIVERED,2",
    "SETTLED,2"
  })
  void aCrashAtAnyStepOfATwoRoundBatchThenTheBatchAgainAppliesEachOnce(
      FaultHook.Step step, int occurrence) {
    AtomicInteger seen = new AtomicInteger();
    FunctionRuntime crashing =
        runtime(
            b ->
                b.maxAttempts(5)
                    .faultHook(
                        (at, address) -> {
                          if (at == step && seen.incrementAndGet() == occurrence) {
                            throw new QueueBatchContract.SimulatedCrash();
                          }
                        }),
            functions());
    FunctionRuntime other = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "crash-" + step + occurrence);
    for (int i = 1; i <= 5; i++) {
      enqueue(message(room, "e:" + PAD + ":m" + i));
    }

    assertThrows(
        QueueBatchContract.SimulatedCrash.class,
        () -> LambdaLikeWorker.pollOnce(queue(), crashing));
    waitForVisibility();
    drain(other);
    clock.advance(Duration.ofMinutes(3));
    other.sweepTimers();
    drain(other);

    assertEquals(List.of(), deadLetterErrors(), "dead letters");
    assertEquals(5, value(room, COUNT), "messages applied");
    assertEachOnce(List.of("m1", "m2", "m3", "m4", "m5"));
    assertEquals(0, outboxesLeftLater(other), "outboxes left");
  }

  /**
   * On a store whose batch reads lag one commit behind (DynamoDB's eventually consistent reads,
   * just after a write), the second round reads the state round one just committed never stale: an
   * eventually consistent read there made every later round's commit conflict, then read again.
   */
  @Test
  void laterRoundsReadWhatTheRoundBeforeCommitted() {
    FunctionStore real = store();
    Map<Address, AddressState> seen = new HashMap<>();
    AtomicInteger conflicts = new AtomicInteger();
    FunctionStore lagging =
        (FunctionStore)
            Proxy.newProxyInstance(
                FunctionStore.class.getClassLoader(),
                new Class<?>[] {FunctionStore.class},
                (proxy, method, args) -> {
                  try {
                    Object result = method.invoke(real, args);
                    if (method.getName().equals("load")) {
                      LoadResult latest = (LoadResult) result;
                      Map<Address, AddressState> states = new HashMap<>(latest.states());
                      synchronized (seen) {
                        states.replaceAll((address, state) -> seen.getOrDefault(address, state));
                        seen.putAll(latest.states());
                      }
                      return new LoadResult(states, latest.existingTimers());
                    }
                    return result;
                  } catch (InvocationTargetException e) {
                    if (e.getCause() instanceof CommitConflictException) {
                      conflicts.incrementAndGet();
                    }
                    throw e.getCause();
                  }
                });
    FunctionRuntime runtime = runtime(b -> b.store(lagging).maxAttempts(5), functions());
    Address room = address(ROOM, "lagging");
    for (int i = 1; i <= 5; i++) {
      enqueue(message(room, "e:" + PAD + ":m" + i));
    }

    drain(runtime);

    assertEquals(5, value(room, COUNT), "messages applied");
    assertEachOnce(List.of("m1", "m2", "m3", "m4", "m5"));
    assertEquals(0, conflicts.get(), "commits that conflicted");
  }

  /** The same on a direct batch with keys: the caller retries the whole batch elsewhere. */
  @ParameterizedTest
  @CsvSource({"COMMITTED,1", "SETTLED,1", "LOADED,2", "COMMITTED,2"})
  void aCrashInATwoRoundDirectBatchThenTheCallerRetriesItAppliesEachOnce(
      FaultHook.Step step, int occurrence) {
    AtomicInteger seen = new AtomicInteger();
    FunctionRuntime crashing =
        runtime(
            b ->
                b.faultHook(
                    (at, address) -> {
                      if (at == step && seen.incrementAndGet() == occurrence) {
                        throw new QueueBatchContract.SimulatedCrash();
                      }
                    }),
            functions());
    FunctionRuntime other = runtime(b -> {}, functions());
    Address room = address(ROOM, "direct-crash-" + step + occurrence);
    List<DirectInvocation> batch = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      batch.add(DirectInvocation.of(message(room, "e:" + PAD + ":d" + i), "key-" + i));
    }

    assertThrows(QueueBatchContract.SimulatedCrash.class, () -> crashing.invoke(batch));
    List<DirectResult> retried = other.invoke(batch);
    clock.advance(Duration.ofMinutes(3));
    other.sweepTimers();

    assertApplied(retried);
    assertEquals(5, value(room, COUNT), "messages applied");
    assertEachOnce(List.of("d1", "d2", "d3", "d4", "d5"));
  }

  // ---- 2. a copy of the batch at another instance while round 2 runs ----

  /**
   * Instance A's batch runs round 1 (three messages), then, at {@code step} of round 2, the
   * visibility timeout has passed and instance B receives the whole batch again and processes it;
   * then A goes on. Each message once, each record once by id, no dead letter.
   */
  @ParameterizedTest
  @CsvSource({"LOADED,2", "REGISTERED,2", "COMMITTED,2", "DELIVERED,2", "SETTLED,1"})
  void aCopyOfTheBatchAtAnotherInstanceDuringRoundTwoAppliesEachOnce(
      FaultHook.Step step, int occurrence) {
    FunctionRuntime b = runtime(x -> x.maxAttempts(5), functions());
    AtomicInteger seen = new AtomicInteger();
    AtomicReference<Integer> copies = new AtomicReference<>();
    FunctionRuntime a =
        runtime(
            x ->
                x.maxAttempts(5)
                    .faultHook(
                        (at, address) -> {
                          if (at == step && seen.incrementAndGet() == occurrence) {
                            waitForVisibility();
                            copies.set(LambdaLikeWorker.pollOnce(queue(), b));
                          }
                        }),
            functions());
    Address room = address(ROOM, "copy-" + step + occurrence);
    for (int i = 1; i <= 5; i++) {
      enqueue(message(room, "e:" + PAD + ":c" + i));
    }

    LambdaLikeWorker.pollOnce(queue(), a);
    drain(b);
    clock.advance(Duration.ofMinutes(3));
    b.sweepTimers();
    drain(b);

    assertEquals(5, copies.get(), "B received the batch again while A ran");
    assertEquals(List.of(), deadLetterErrors(), "dead letters");
    assertEquals(5, value(room, COUNT), "messages applied");
    assertEachOnce(List.of("c1", "c2", "c3", "c4", "c5"));
  }

  // ---- 3. calls, timers, failures, last attempts across rounds ----

  /**
   * A direct batch of four keyed calls, three per commit. While round 2 runs (the fourth), the
   * callers' retries of the first and the fourth reach another instance. Every call is answered
   * applied with the reply of its one application; the fourth is applied once.
   */
  @ParameterizedTest
  @CsvSource({"LOADED,2", "REGISTERED,2", "COMMITTED,2"})
  void retriedCallsAtAnotherInstanceDuringRoundTwoAnswerTheirOneApplication(
      FaultHook.Step step, int occurrence) {
    FunctionRuntime b = runtime(x -> {}, functions());
    Address room = address(ROOM, "calls-" + step + occurrence);
    List<DirectInvocation> calls = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      calls.add(DirectInvocation.of(message(room, "e:" + PAD + ":k" + i), "call-" + i));
    }
    AtomicInteger seen = new AtomicInteger();
    List<CallResult> retries = Collections.synchronizedList(new ArrayList<>());
    FunctionRuntime a =
        runtime(
            x ->
                x.faultHook(
                    (at, address) -> {
                      if (at == step && seen.incrementAndGet() == occurrence) {
                        retries.add(b.call(calls.get(0)));
                        retries.add(b.call(calls.get(3)));
                      }
                    }),
            functions());

    List<CallResult> answers = a.call(calls, Duration.ofSeconds(30));

    assertEquals(2, retries.size(), "the retries ran during round 2");
    for (CallResult answer : answers) {
      assertEquals(CallResult.Status.APPLIED, answer.status(), answers::toString);
    }
    for (CallResult retry : retries) {
      assertEquals(CallResult.Status.APPLIED, retry.status(), retries::toString);
    }
    assertEquals("k1@1", reply(answers.get(0)));
    assertEquals("k1@1", reply(retries.get(0)), "the first call's retry: its one reply");
    assertEquals(reply(answers.get(3)), reply(retries.get(1)), "the fourth call's two answers");
    assertEquals("k4@4", reply(answers.get(3)));
    assertEquals(4, value(room, COUNT), "each call applied once");
    clock.advance(Duration.ofMinutes(3));
    b.sweepTimers();
    assertEachOnce(List.of("k1", "k2", "k3", "k4"));
  }

  /** A delayed message set in round 1 and cancelled by its token in round 2 never fires. */
  @Test
  void aDelayedMessageSetInRoundOneAndCancelledInRoundTwoNeverFires() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "set-cancel");
    enqueue(message(room, "set:" + PAD + ":s1:tok"));
    enqueue(message(room, "e:" + PAD + ":s2"));
    enqueue(message(room, "e:" + PAD + ":s3"));
    enqueue(message(room, "cancel:" + PAD + ":s4:tok"));

    drain(runtime);
    clock.advance(Duration.ofMinutes(5));
    runtime.sweepTimers();
    drain(runtime);

    assertEquals(List.of(), deadLetterErrors());
    assertEquals(4, value(room, COUNT));
    assertEquals(List.of(), fired.texts(), "the cancelled delayed message");
    assertTrue(store().reload(room).pendingTokens().isEmpty(), "the token is free");
  }

  /**
   * The reverse: a token pending from before is cancelled in round 1 and set again in round 2 (the
   * token is free once round 1 committed): the new one fires once, the old one never.
   */
  @Test
  void aTokenCancelledInRoundOneAndSetAgainInRoundTwoFiresOnceTheNewMessage() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "cancel-set");
    enqueue(message(room, "set:0:old:tok"));
    drain(runtime);
    enqueue(message(room, "cancel:" + PAD + ":r1:tok"));
    enqueue(message(room, "e:" + PAD + ":r2"));
    enqueue(message(room, "e:" + PAD + ":r3"));
    enqueue(message(room, "set:" + PAD + ":r4:tok"));

    drain(runtime);
    clock.advance(Duration.ofMinutes(5));
    runtime.sweepTimers();
    drain(runtime);

    assertEquals(List.of(), deadLetterErrors());
    assertEquals(6, value(room, COUNT), "five messages and the one fired");
    assertEquals(List.of("fired tok"), fired.texts());
  }

  /**
   * A delayed message due and sent to the queue behind a cancellation of its token that fills a
   * commit with two others: the cancellation (round 1) wins, the message (round 2) is dropped.
   */
  @Test
  void aCancellationInRoundOneWinsOverItsTimersMessageInRoundTwo() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "cancel-fire");
    enqueue(message(room, "set:0:t0:tok"));
    drain(runtime);
    enqueue(message(room, "cancel:" + PAD + ":t1:tok"));
    enqueue(message(room, "e:" + PAD + ":t2"));
    enqueue(message(room, "e:" + PAD + ":t3"));
    clock.advance(Duration.ofMinutes(2));
    assertEquals(1, runtime.sweepTimers().sent());

    drain(runtime);
    clock.advance(Duration.ofMinutes(10));
    runtime.sweepTimers();
    drain(runtime);

    assertEquals(List.of(), deadLetterErrors());
    assertEquals(List.of(), fired.texts(), "cancelled before its message ran");
    assertEquals(4, value(room, COUNT));
  }

  /** The reverse: the timer's message runs in round 1, its cancellation in round 2 does nothing. */
  @Test
  void aTimersMessageInRoundOneThenItsCancellationInRoundTwoFiresOnce() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "fire-cancel");
    enqueue(message(room, "set:0:t0:tok"));
    drain(runtime);
    clock.advance(Duration.ofMinutes(2));
    assertEquals(1, runtime.sweepTimers().sent());
    enqueue(message(room, "e:" + PAD + ":t1"));
    enqueue(message(room, "e:" + PAD + ":t2"));
    enqueue(message(room, "e:" + PAD + ":t3"));
    enqueue(message(room, "cancel:" + PAD + ":t4:tok"));

    drain(runtime);
    clock.advance(Duration.ofMinutes(10));
    runtime.sweepTimers();
    drain(runtime);

    assertEquals(List.of(), deadLetterErrors());
    assertEquals(List.of("fired tok"), fired.texts());
    assertEquals(6, value(room, COUNT));
  }

  /**
   * A function that throws in round 2: its message fails (and, FIFO, the one after it), the three
   * of round 1 stay applied once; at its last attempt it is dead-lettered with its error and the
   * one after it applied, in order.
   */
  @Test
  void aMessageThatThrowsInRoundTwoFailsAloneAndTheRestKeepTheirOrder() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), functions());
    Address room = address(ROOM, "throws");
    for (int i = 1; i <= 3; i++) {
      enqueue(message(room, "e:" + PAD + ":f" + i));
    }
    enqueue(message(room, "fail:0:f4"));
    enqueue(message(room, "e:" + PAD + ":f5"));

    QueueBatchResult first = new QueueBatchContractAccess(this).pollAll(runtime);
    assertEquals(2, first.failedMessageIds().size(), first::toString);
    assertEquals(3, value(room, COUNT), "round 1 applied, round 2 nothing");
    waitForVisibility();
    drain(runtime);

    List<String> letters = deadLetterErrors();
    assertEquals(1, letters.size(), letters::toString);
    assertTrue(letters.get(0).contains("room asked to fail f4"), letters::toString);
    assertEquals(4, value(room, COUNT));
    assertEachOnce(List.of("f1", "f2", "f3", "f5"));
    List<String> order = new ArrayList<>();
    counted.texts().forEach(t -> order.add(t.substring(0, t.indexOf(':'))));
    assertEquals(List.of("f1", "f2", "f3", "f5"), order, "in group order");
  }

  /**
   * Messages on their last attempt left for a later round are applied there, never dead-lettered.
   */
  @Test
  void messagesOnTheirLastAttemptLeftForALaterRoundAreApplied() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(1), functions());
    Address room = address(ROOM, "last");
    for (int i = 1; i <= 7; i++) {
      enqueue(message(room, "e:" + PAD + ":l" + i));
    }

    drain(runtime);

    assertEquals(List.of(), deadLetterErrors());
    assertEquals(7, value(room, COUNT));
    assertEachOnce(List.of("l1", "l2", "l3", "l4", "l5", "l6", "l7"));
  }

  // ---- timer changes the planner does not count ----

  /**
   * A delayed message whose effects the runtime refuses (an egress without a route) fires into a
   * batch beside two messages setting 50 and 49 delayed messages: the refused one is dead-lettered
   * and its timer consumed in the same commit, a 100th timer change the planner did not count
   * (EffectCheck counts a fired timer only when its message runs). The commit then holds 101
   * actions, DynamoDB refuses it as invalid, and the two valid messages are dead-lettered with it.
   */
  @Test
  void aRefusedDelayedMessageBesideTimerHeavyMessagesDoesNotTakeThemToTheDeadLetterQueue() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "uncounted");
    enqueue(message(room, "setbad:0:b:tok"));
    drain(runtime);
    clock.advance(Duration.ofMinutes(2));
    assertEquals(1, runtime.sweepTimers().sent());
    enqueue(message(room, "many:0:p1:50"));
    enqueue(message(room, "many:0:p2:49"));

    drain(runtime);

    List<String> letters = deadLetterErrors();
    assertEquals(1, letters.size(), letters::toString);
    assertTrue(letters.get(0).contains("nowhere"), letters::toString);
    assertEquals(3, value(room, COUNT), "setbad and the two timer-heavy messages applied");
  }

  /**
   * The same with the fired timer last: [many:50, many:49, fired bad]. The checks of the two runs
   * count 99 timer changes; the fired one, refused and dead-lettered without running, adds its
   * timer's removal, a 100th change no check counted, and the commit would hold 101 actions, which
   * DynamoDB refuses: the two valid messages were dead-lettered with it. It now waits for a commit
   * of its own.
   */
  /**
   * A cancellation token is a key of its owner's item: one holding half a character reached
   * DynamoDB as another text, so cancelling it found nothing and its message came all the same.
   * Such a token, or one past 1,024 bytes, is refused with the message that set it, and says why.
   */
  /**
   * A deploy changed the type of a function's value: every message to an address that holds the old
   * type is dead-lettered without running. Three 150 KB messages in one batch are three dead
   * letters that do not fit one commit together; each must still reach the dead-letter queue once.
   */
  @Test
  void largeMessagesToAnAddressWhoseStateNoLongerFitsItsTypeAreEachDeadLettered() {
    TypeName shape = TypeName.of("test", "shape");
    Address address = address(shape, "changed");
    FunctionRuntime before =
        runtime(
            b -> {},
            StatefulFunctions.builder()
                .withFunction(shape, (context, message) -> context.storage().set(COUNT, 1L), COUNT)
                .build());
    enqueue(MessageBuilder.forAddress(address).withValue("first").build());
    drain(before);
    ValueSpec<String> renamedType = ValueSpec.named("count").withUtf8StringType();
    FunctionRuntime after =
        runtime(
            b -> b.maxAttempts(3),
            StatefulFunctions.builder()
                .withFunction(
                    shape,
                    (context, message) -> context.storage().set(renamedType, "x"),
                    renamedType)
                .build());
    for (int i = 0; i < 3; i++) {
      enqueue(MessageBuilder.forAddress(address).withValue(i + "p".repeat(150_000)).build());
    }

    drain(after);

    List<String> letters = deadLetterErrors();
    assertEquals(3, letters.size(), letters::toString);
    assertTrue(letters.stream().allMatch(l -> l.contains("count")), letters::toString);
    assertEquals(1, value(address, COUNT), "the stored value is left as it was");
  }

  @Test
  void aTokenCutInsideACharacterOrTooLongIsRefusedSayingWhy() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "odd-token");
    enqueue(message(room, "setodd:0:o:tok"));
    enqueue(message(room, "setodd:0:l:long"));
    enqueue(message(room, "set:0:s:fine"));
    drain(runtime);

    List<String> letters = deadLetterErrors();
    assertEquals(2, letters.size(), letters::toString);
    assertTrue(
        letters.stream().anyMatch(l -> l.contains("half a character at index 3")),
        letters::toString);
    assertTrue(
        letters.stream().anyMatch(l -> l.contains("1025 bytes, more than the 1024")),
        letters::toString);
    assertEquals(1, value(room, COUNT), "only the message with a fine token applied");
  }

  @Test
  void aRefusedDelayedMessageAfterTimerHeavyMessagesDoesNotTakeThemToTheDeadLetterQueue() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "uncounted-last");
    enqueue(message(room, "setbad:0:b:tok"));
    drain(runtime);
    clock.advance(Duration.ofMinutes(2));
    enqueue(message(room, "many:0:p1:50"));
    enqueue(message(room, "many:0:p2:49"));
    assertEquals(1, runtime.sweepTimers().sent(), "the fired timer, behind the two in its group");

    drain(runtime);

    List<String> letters = deadLetterErrors();
    assertEquals(1, letters.size(), letters::toString);
    assertTrue(letters.get(0).contains("nowhere"), letters::toString);
    assertEquals(3, value(room, COUNT), "setbad and the two timer-heavy messages applied");
  }

  /**
   * A delayed message whose effects the runtime refuses is dead-lettered and its timer consumed;
   * its owner's token (the address's own) must go with it, or the token stays pending for ever and
   * every later message setting it is refused.
   */
  @Test
  void aRefusedDelayedMessageFreesItsOwnersToken() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "token");
    enqueue(message(room, "setbad:0:b:tok"));
    drain(runtime);
    clock.advance(Duration.ofMinutes(2));
    assertEquals(1, runtime.sweepTimers().sent());
    drain(runtime);
    assertEquals(1, deadLetterErrors().size(), deadLetterErrors()::toString);

    enqueue(message(room, "set:0:again:tok"));
    drain(runtime);
    clock.advance(Duration.ofMinutes(2));
    runtime.sweepTimers();
    drain(runtime);

    assertEquals(1, deadLetterErrors().size(), deadLetterErrors()::toString);
    assertEquals(List.of("fired tok"), fired.texts(), "the token set again fired");
  }

  // ---- helpers ----

  static Message message(Address target, String command) {
    return MessageBuilder.forAddress(target).withValue(command).build();
  }

  static String reply(CallResult result) {
    assertTrue(result.replied(), () -> "no reply: " + result);
    return Types.stringType().deserialize(result.replyValue());
  }

  /** Each tag's record exists under exactly one id (repeats of one id are allowed), no others. */
  void assertEachOnce(List<String> tags) {
    Map<String, String> byId = new HashMap<>();
    for (var record : counted.records()) {
      String text = record.textOrBase64();
      String previous = byId.put(record.id(), text);
      assertTrue(previous == null || previous.equals(text), "one id, two records: " + record.id());
    }
    Map<String, Integer> perTag = new TreeMap<>();
    byId.values().forEach(t -> perTag.merge(t.substring(0, t.indexOf(':')), 1, Integer::sum));
    Map<String, Integer> expected = new TreeMap<>();
    tags.forEach(t -> expected.put(t, 1));
    assertEquals(expected, perTag, "egress records per message, by id");
  }

  /** QueueBatchContract's pollAll, reused. */
  static final class QueueBatchContractAccess {
    private final RuntimeFixture fixture;

    QueueBatchContractAccess(RuntimeFixture fixture) {
      this.fixture = fixture;
    }

    QueueBatchResult pollAll(FunctionRuntime runtime) {
      List<QueueSource.Received> batch = fixture.queue().receive(10);
      QueueBatchResult result =
          runtime.processQueueBatch(batch.stream().map(QueueSource.Received::message).toList());
      for (QueueSource.Received received : batch) {
        if (!result.failedMessageIds().contains(received.message().messageId())) {
          fixture.queue().delete(received.receiptHandle());
        }
      }
      return result;
    }
  }
}
