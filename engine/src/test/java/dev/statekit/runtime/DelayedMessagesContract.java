package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.types.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Delayed messages: durable timers, swept on a schedule, cancellable, applied once. */
abstract class DelayedMessagesContract extends RuntimeFixture {

  @Test
  void aDelayedMessageArrivesAfterDowntimeExactlyOnce() {
    FunctionRuntime runtime = runtime();
    Address reminder = address(TestFunctions.REMINDER, "r1");
    assertApplied(List.of(runtime.invoke(command(reminder, "set:60000:t1"))));

    assertEquals(0, runtime.sweepTimers().sent(), "not due yet");
    clock.advance(Duration.ofMinutes(30));
    assertEquals(1, runtime.sweepTimers().sent(), "due, and delivered after the downtime");
    drain(runtime);

    assertEquals(List.of(reminder.id() + " fired t1"), fired.texts());
    clock.advance(Duration.ofMinutes(10));
    assertEquals(0, runtime.sweepTimers().sent(), "applied timers are gone");
  }

  @Test
  void aSweepStopsAtItsDeadlineAndSaysMoreIsDue() {
    FunctionRuntime runtime = runtime(b -> b.sweepLimit(1));
    List<DirectInvocation> sets = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      sets.add(command(address(TestFunctions.REMINDER, "many-" + i), "set:1000:t"));
    }
    assertApplied(runtime.invoke(sets));
    clock.advance(Duration.ofSeconds(2));

    SweepResult first = runtime.sweepTimers(Deadline.after(Duration.ZERO));
    assertTrue(first.more(), "stopped by the deadline with timers still due");
    assertTrue(first.sent() >= 1 && first.sent() <= 8, "one sweep, one timer per shard: " + first);

    SweepResult rest = runtime.sweepTimers(Deadline.none());
    assertEquals(12, first.sent() + rest.sent(), "the next call carries on: " + rest);
    assertFalse(rest.more());
    drain(runtime);
    assertEquals(12, fired.texts().size(), "each fired once");
  }

  @Test
  void aTimerSentTwiceIsAppliedOnce() {
    FunctionRuntime runtime = runtime();
    Address reminder = address(TestFunctions.REMINDER, "twice");
    runtime.invoke(command(reminder, "set:1000:t"));
    clock.advance(Duration.ofSeconds(2));

    assertEquals(1, runtime.sweepTimers().sent());
    clock.advance(Duration.ofMinutes(6));
    assertEquals(1, runtime.sweepTimers().sent(), "not applied yet, so sent again");
    drain(runtime);

    assertEquals(List.of(reminder.id() + " fired t"), fired.texts());
    assertEquals(1, fired.deliveries());
  }

  @Test
  void aCancellationWinsEvenOnceTheMessageIsDue() {
    FunctionRuntime runtime = runtime();
    Address reminder = address(TestFunctions.REMINDER, "cancel");
    runtime.invoke(command(reminder, "set:60000:keep"));
    runtime.invoke(command(reminder, "set:60000:drop"));
    clock.advance(Duration.ofMinutes(2));

    assertStatus(DirectResult.Status.APPLIED, runtime.invoke(command(reminder, "cancel:drop")));
    assertStatus(DirectResult.Status.APPLIED, runtime.invoke(command(reminder, "cancel:unknown")));
    assertEquals(1, runtime.sweepTimers().sent());
    drain(runtime);

    assertEquals(List.of(reminder.id() + " fired keep"), fired.texts());
  }

  @Test
  void aCancellationAfterTheSweepSentTheMessageStillWins() {
    FunctionRuntime runtime = runtime();
    Address reminder = address(TestFunctions.REMINDER, "late-cancel");
    runtime.invoke(command(reminder, "set:1000:x"));
    clock.advance(Duration.ofSeconds(5));
    assertEquals(1, runtime.sweepTimers().sent());

    runtime.invoke(command(reminder, "cancel:x"));
    drain(runtime);

    assertEquals(List.of(), fired.texts());
  }

  @Test
  void aPendingTokenCannotBeRegisteredAgainUntilItFires() {
    FunctionRuntime runtime = runtime();
    Address reminder = address(TestFunctions.REMINDER, "dup");
    runtime.invoke(command(reminder, "set:1000:same"));

    DirectResult again = runtime.invoke(command(reminder, "set:5000:same"));

    assertStatus(DirectResult.Status.REJECTED, again);
    assertTrue(
        again.error().contains("'same'") && again.error().contains("still pending"), again.error());
    clock.advance(Duration.ofSeconds(2));
    runtime.sweepTimers();
    drain(runtime);
    assertStatus(DirectResult.Status.APPLIED, runtime.invoke(command(reminder, "set:5000:same")));
  }

  @Test
  void aYearLongDelayToAnotherAddressFreesItsOwnersToken() {
    FunctionRuntime runtime = runtime();
    Address reminder = address(TestFunctions.REMINDER, "owner");
    String counterId = "target-" + run;
    String later = "later:" + Duration.ofDays(365).toMillis() + ":" + counterId;
    runtime.invoke(command(reminder, later));
    assertStatus(DirectResult.Status.REJECTED, runtime.invoke(command(reminder, later)));

    clock.advance(Duration.ofDays(364));
    assertEquals(0, runtime.sweepTimers().sent());
    clock.advance(Duration.ofDays(1).plusSeconds(1));
    assertEquals(1, runtime.sweepTimers().sent());
    drain(runtime);

    Address counter = Address.of(TestFunctions.COUNTER, counterId);
    var count = store().reload(counter).values().get(TestFunctions.COUNT.name());
    assertEquals(1L, Types.longType().deserialize(count.bytes()));
    assertTrue(store().reload(reminder).pendingTokens().isEmpty(), "the owner's token is free");
    assertStatus(DirectResult.Status.APPLIED, runtime.invoke(command(reminder, later)));
  }

  @Test
  void aZeroDelayWithoutTokenGoesOutWithTheCommit() {
    FunctionRuntime runtime = runtime();
    Address reminder = address(TestFunctions.REMINDER, "now");

    runtime.invoke(command(reminder, "set:0:"));
    drain(runtime);

    assertEquals(List.of(reminder.id() + " fired "), fired.texts());
  }

  static DirectInvocation command(Address reminder, String command) {
    return DirectInvocation.of(MessageBuilder.forAddress(reminder).withValue(command).build());
  }
}
