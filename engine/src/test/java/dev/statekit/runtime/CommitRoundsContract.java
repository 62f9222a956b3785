package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Review of the commit rounds (d84bd31): a bundle (one queue message with several invocations from
 * one sender's commit) whose invocations together outgrow one commit of their address is split
 * across rounds of one batch. Its parts applied in the first round must be recognized as repeats in
 * the next.
 */
abstract class CommitRoundsContract extends RuntimeFixture {
  static final TypeName FANOUT = TypeName.of("test", "fanout");

  /** {@code "target|size|count"}: sends {@code count} messages of {@code size} to loud/target. */
  static void fanout(Context context, Message message) {
    String[] parts = message.asUtf8String().split("\\|");
    Address target = Address.of(CommitRoomContract.LOUD, parts[0]);
    for (int i = 0; i < Integer.parseInt(parts[2]); i++) {
      context.send(MessageBuilder.forAddress(target).withValue(Long.parseLong(parts[1])).build());
    }
  }

  /** {@code "target|n|count"}: sends {@code count} messages to planner/target, each n timers. */
  static void fanoutTimers(Context context, Message message) {
    String[] parts = message.asUtf8String().split("\\|");
    Address target = Address.of(CommitRoomContract.PLANNER, parts[0]);
    for (int i = 0; i < Integer.parseInt(parts[2]); i++) {
      context.send(MessageBuilder.forAddress(target).withValue(Long.parseLong(parts[1])).build());
    }
  }

  static final TypeName FANOUT_TIMERS = TypeName.of("test", "fanout-timers");

  static StatefulFunctions functions() {
    return StatefulFunctions.builder()
        .withFunction(CommitRoomContract.LOUD, CommitRoomContract::loud, CommitRoomContract.COUNT)
        .withFunction(
            CommitRoomContract.PLANNER, CommitRoomContract::planner, CommitRoomContract.COUNT)
        .withFunction(FANOUT, CommitRoundsContract::fanout)
        .withFunction(FANOUT_TIMERS, CommitRoundsContract::fanoutTimers)
        .withFunction(
            TestFunctions.TOTAL, TestFunctions::total, TestFunctions.COUNT, TestFunctions.SUM)
        .build();
  }

  /**
   * One sender commit sends three messages to loud/x, each sending a 150 KB egress record: they
   * arrive as one bundle, one queue message. Two fit one commit (300 KB of outbox), the third runs
   * in round 2. Round 2 runs the whole bundle again, and its first two parts, on their first send
   * (attempts 1, not resent, committed just now), are not checked against the sender's mark: they
   * are applied again, and again each round, until the round cap.
   */
  @Test
  void aBundleSplitAcrossRoundsIsAppliedOnceEach() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    String target = "bundle-" + run;
    List<DirectResult> sent =
        runtime.invoke(
            List.of(
                DirectInvocation.of(
                    MessageBuilder.forAddress(address(FANOUT, "s"))
                        .withValue(target + "|150000|3")
                        .build())));
    assertApplied(sent);

    drainAll(runtime);

    assertEquals(List.of(), deadLetterErrors(), "dead letters");
    assertEquals(
        "3 applied, 3 egress records",
        value(Address.of(CommitRoomContract.LOUD, target))
            + " applied, "
            + counted.records().size()
            + " egress records");
  }

  /** The same with the 99 timer changes of one commit: each part schedules 60 reminders. */
  @Test
  void aBundleOfTimerHeavyMessagesSplitAcrossRoundsIsAppliedOnceEach() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    String target = "timers-" + run;
    assertApplied(
        runtime.invoke(
            List.of(
                DirectInvocation.of(
                    MessageBuilder.forAddress(address(FANOUT_TIMERS, "s"))
                        .withValue(target + "|60|2")
                        .build()))));

    drainAll(runtime);

    assertEquals(List.of(), deadLetterErrors(), "dead letters");
    assertEquals(
        2, value(Address.of(CommitRoomContract.PLANNER, target)), "bundle's messages applied");
  }

  /** Drains the queue, and again once what failed becomes visible again. */
  void drainAll(FunctionRuntime runtime) {
    for (int i = 0; i < 5; i++) {
      drain(runtime);
      waitForVisibility();
    }
  }

  List<String> deadLetterErrors() {
    List<String> errors = new ArrayList<>();
    for (Map.Entry<String, Map<String, String>> letter : deadLetters().peekAll()) {
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

  long value(Address address) {
    var value = store().reload(address).values().get(CommitRoomContract.COUNT.name());
    return value == null ? 0 : Types.longType().deserialize(value.bytes());
  }
}
