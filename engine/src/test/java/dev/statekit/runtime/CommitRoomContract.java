package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Messages that each fit one commit, but not all together: what one commit of an address can hold
 * (its item's 400 KB, outbox included; 99 timer changes) is a property of the batch, not of any one
 * message. Each message is valid and succeeds alone; none may be lost to the dead-letter queue
 * because of which other messages happened to share its batch.
 */
abstract class CommitRoomContract extends RuntimeFixture {
  static final TypeName LOUD = TypeName.of("test", "loud");
  static final TypeName PLANNER = TypeName.of("test", "planner");
  static final TypeName FANOUT = TypeName.of("test", "fanout");
  static final ValueSpec<Long> COUNT = ValueSpec.named("count").withLongType();

  /** {@code n}: counts, and sends an egress record of {@code n} characters. */
  static void loud(Context context, Message message) {
    context.storage().set(COUNT, context.storage().get(COUNT).orElse(0L) + 1);
    context.send(
        EgressMessageBuilder.forEgress(TestFunctions.COUNTED)
            .withValue("x".repeat((int) message.asLong()))
            .build());
  }

  /** {@code n}: counts, and schedules {@code n} reminders an hour ahead (no tokens). */
  static void planner(Context context, Message message) {
    context.storage().set(COUNT, context.storage().get(COUNT).orElse(0L) + 1);
    for (long i = 0; i < message.asLong(); i++) {
      context.sendAfter(
          Duration.ofHours(1),
          MessageBuilder.forAddress(TestFunctions.TOTAL, "reminded").withValue(1L).build());
    }
  }

  /**
   * {@code "target|value|count"}: sends {@code count} messages of {@code value} to loud/target, or
   * with {@code "timers|..."} to planner/target: one bundle, one queue message.
   */
  static void fanout(Context context, Message message) {
    String[] parts = message.asUtf8String().split("\\|");
    boolean timers = parts[0].equals("timers");
    Address target = Address.of(timers ? PLANNER : LOUD, parts[timers ? 1 : 0]);
    int at = timers ? 2 : 1;
    for (int i = 0; i < Integer.parseInt(parts[at + 1]); i++) {
      context.send(MessageBuilder.forAddress(target).withValue(Long.parseLong(parts[at])).build());
    }
  }

  static StatefulFunctions functions() {
    return StatefulFunctions.builder()
        .withFunction(LOUD, CommitRoomContract::loud, COUNT)
        .withFunction(PLANNER, CommitRoomContract::planner, COUNT)
        .withFunction(FANOUT, CommitRoomContract::fanout)
        .withFunction(
            TestFunctions.TOTAL, TestFunctions::total, TestFunctions.COUNT, TestFunctions.SUM)
        .build();
  }

  /**
   * Five queued messages to one address, each sending a 100 KB egress record: each alone commits an
   * item of about 100 KB. In one batch their outboxes share one commit, which would pass 400 KB,
   * and the runtime dead-letters the fourth and fifth as "state too large" at once (applied: no),
   * although the address's state is a counter and either message succeeds in a commit of its own.
   */
  @Test
  void messagesWhoseEffectsTogetherOutgrowOneCommitAreAllAppliedNotDeadLettered() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address loud = address(LOUD, "loud");
    for (int i = 0; i < 5; i++) {
      enqueue(MessageBuilder.forAddress(loud).withValue(100_000L).build());
    }

    drain(runtime);

    assertEquals(List.of(), deadLetterErrors(), "dead letters of messages that each succeed alone");
    assertEquals(5, value(loud, COUNT), "messages applied");
    assertEquals(5, counted.records().size(), "egress records delivered");
  }

  /** The same on a direct batch: the fourth and fifth are answered "rejected" (don't retry). */
  @Test
  void aDirectBatchWhoseEffectsTogetherOutgrowOneCommitRejectsNoValidMessage() {
    FunctionRuntime runtime = runtime(b -> {}, functions());
    Address loud = address(LOUD, "direct");
    List<DirectInvocation> batch = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      batch.add(DirectInvocation.of(MessageBuilder.forAddress(loud).withValue(100_000L).build()));
    }

    List<DirectResult> results = runtime.invoke(batch);

    List<String> notApplied = new ArrayList<>();
    for (DirectResult result : results) {
      if (result.status() == DirectResult.Status.REJECTED) {
        notApplied.add(result.toString());
      }
    }
    assertEquals(List.of(), notApplied, "valid messages answered 'rejected: don't repeat it'");
    assertEquals(5, value(loud, COUNT));
  }

  /**
   * A backlog of ten queued messages to one address, each scheduling 50 delayed messages: one
   * commit holds 99 timer changes, so one message runs per batch and the others fail "Not run in
   * this batch", which counts as an attempt even on their last one. With the default five attempts
   * the sixth to tenth are then received past their last attempt and dead-lettered as not applied,
   * although none of them ever failed.
   */
  @Test
  void aBacklogOfMessagesThatEachFillACommitWithTimersIsAllAppliedNotDeadLettered() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address planner = address(PLANNER, "planner");
    for (int i = 0; i < 10; i++) {
      enqueue(MessageBuilder.forAddress(planner).withValue(50L).build());
    }

    int polls = 0;
    while (polls++ < 50) {
      if (LambdaLikeWorker.pollOnce(queue(), runtime) == 0) {
        waitForVisibility();
        if (LambdaLikeWorker.pollOnce(queue(), runtime) == 0) {
          break;
        }
      }
    }

    assertEquals(List.of(), deadLetterErrors(), "dead letters of messages that never failed");
    assertEquals(10, value(planner, COUNT), "messages applied");
  }

  /**
   * One sender commit sends three messages to one address, each sending a 150 KB egress record:
   * they arrive as one bundle (one queue message), of which one commit holds two. The next round
   * runs the bundle again, and its parts the first round applied are repeats there, though on their
   * first send (before 4 December they were applied again in each round).
   */
  @Test
  void aBundleSplitAcrossCommitsIsAppliedOnceEach() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address target = address(LOUD, "bundle");
    List<DirectResult> sent =
        runtime.invoke(List.of(DirectInvocation.of(fanout(target.id() + "|150000|3"))));
    assertEquals(DirectResult.Status.APPLIED, sent.get(0).status(), sent::toString);

    drain(runtime);

    assertEquals(List.of(), deadLetterErrors(), "dead letters");
    assertEquals(3, value(target, COUNT), "the bundle's messages applied");
    assertEquals(3, counted.records().size(), "egress records delivered");
  }

  /** The same with delayed messages: each part sets 60, one commit holds 99 timer changes. */
  @Test
  void aBundleOfTimerHeavyMessagesSplitAcrossCommitsIsAppliedOnceEach() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address target = address(PLANNER, "bundle");
    List<DirectResult> sent =
        runtime.invoke(List.of(DirectInvocation.of(fanout("timers|" + target.id() + "|60|2"))));
    assertEquals(DirectResult.Status.APPLIED, sent.get(0).status(), sent::toString);

    drain(runtime);

    assertEquals(List.of(), deadLetterErrors(), "dead letters");
    assertEquals(2, value(target, COUNT), "the bundle's messages applied");
  }

  /**
   * Two direct invocations with one idempotency key, behind three that fill the commit: the first
   * of the two runs in the next commit, and the second is answered as its repeat there, not failed
   * with the first's "not run in this commit".
   */
  @Test
  void aRepeatOfAnInvocationLeftForTheNextCommitIsAnsweredAsItsRepeat() {
    FunctionRuntime runtime = runtime(b -> {}, functions());
    Address loud = address(LOUD, "keyed");
    List<DirectInvocation> batch = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      batch.add(DirectInvocation.of(MessageBuilder.forAddress(loud).withValue(130_000L).build()));
    }
    Message keyed = MessageBuilder.forAddress(loud).withValue(130_000L).build();
    batch.add(DirectInvocation.of(keyed, "the-key"));
    batch.add(DirectInvocation.of(keyed, "the-key"));

    List<DirectResult> results = runtime.invoke(batch);

    assertEquals(DirectResult.Status.APPLIED, results.get(3).status(), results::toString);
    assertEquals(DirectResult.Status.DUPLICATE, results.get(4).status(), results::toString);
    assertEquals(4, value(loud, COUNT));
  }

  private Message fanout(String value) {
    return MessageBuilder.forAddress(address(FANOUT, "sender")).withValue(value).build();
  }
}
