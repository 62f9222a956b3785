package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.store.FunctionStore;
import dev.statekit.types.TypeName;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Delayed messages at their edges: a crash between a timer's send and its mark, a token set again
 * right after its cancellation, a delayed message that cancels another, the sweep's boundaries.
 * Each message is delivered exactly once, never before it is due, unless cancelled before.
 */
abstract class TimerEdgesContract extends RuntimeFixture {
  static final TypeName CHAIN = TypeName.of("test", "chain");

  /**
   * {@code set:<ms>:<token>:<then>} sends itself {@code run:<token>:<then>} after the delay with
   * the token; {@code run:<token>:<then>} reports {@code <token>} to FIRED and cancels {@code
   * <then>} if not empty; {@code cancel:<token>} cancels.
   */
  static void chain(Context context, Message message) {
    String[] parts = message.asUtf8String().split(":", -1);
    switch (parts[0]) {
      case "set" ->
          context.sendAfter(
              Duration.ofMillis(Long.parseLong(parts[1])),
              MessageBuilder.forAddress(context.self())
                  .withValue("run:" + parts[2] + ":" + parts[3])
                  .build(),
              parts[2]);
      case "run" -> {
        context.send(
            EgressMessageBuilder.forEgress(TestFunctions.FIRED).withValue(parts[1]).build());
        if (!parts[2].isEmpty()) {
          context.cancelDelayedMessage(parts[2]);
        }
      }
      case "cancel" -> context.cancelDelayedMessage(parts[1]);
      default -> throw new IllegalArgumentException("unknown command " + message.asUtf8String());
    }
  }

  private static StatefulFunctions functions() {
    return StatefulFunctions.builder()
        .withFunction(CHAIN, TimerEdgesContract::chain)
        .withFunction(TestFunctions.REMINDER, TestFunctions::reminder)
        .build();
  }

  private DirectInvocation command(Address to, String command) {
    return DirectInvocation.of(MessageBuilder.forAddress(to).withValue(command).build());
  }

  private int wake(FunctionRuntime runtime) {
    int handled = 0;
    for (int n; (n = LambdaLikeWorker.pollOnce(wakeUpQueue(), runtime)) > 0; ) {
      handled += n;
    }
    return handled;
  }

  /** The store, failing its first {@code markSent} as a process dying after the send would. */
  private FunctionStore crashingAtFirstMark(AtomicInteger marks) {
    FunctionStore real = store();
    return (FunctionStore)
        Proxy.newProxyInstance(
            FunctionStore.class.getClassLoader(),
            new Class<?>[] {FunctionStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("markSent") && marks.getAndIncrement() == 0) {
                throw new QueueBatchContract.SimulatedCrash();
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void aCrashBetweenTheSendAndTheMarkThenTheSweepAndTheWakeUpAppliesOnce() {
    AtomicInteger marks = new AtomicInteger();
    FunctionStore crashing = crashingAtFirstMark(marks);
    FunctionRuntime dying =
        runtime(b -> b.store(crashing).wakeUps(wakeUpQueue().bus()), functions());
    Address owner = address(CHAIN, "crash-mark");
    assertApplied(List.of(dying.invoke(command(owner, "set:1000:a:"))));
    elapse(Duration.ofMillis(1500));
    // The sweep sends the due timer, then dies before marking it sent.
    try {
      dying.sweepTimers();
    } catch (RuntimeException expected) {
      // the crash
    }
    assertTrue(marks.get() >= 1, "the sweep reached the mark");
    // Past the queue's deduplication window, the wake-up and the next sweep send it again.
    elapse(Duration.ofMinutes(6));
    FunctionRuntime runtime = runtime(b -> b.wakeUps(wakeUpQueue().bus()), functions());
    wake(runtime);
    runtime.sweepTimers();
    drain(runtime);
    elapse(Duration.ofMinutes(6));
    runtime.sweepTimers();
    drain(runtime);

    assertEquals(List.of("a"), fired.texts());
    assertEquals(1, fired.deliveries());
  }

  @Test
  void aTokenSetAgainRightAfterItsCancellationFiresOnlyTheNewTimerOnItsTime() {
    FunctionRuntime runtime = runtime(b -> b.wakeUps(wakeUpQueue().bus()), functions());
    Address owner = address(CHAIN, "reuse");
    assertApplied(List.of(runtime.invoke(command(owner, "set:2000:a:"))));
    elapse(Duration.ofMillis(2500));
    // The old timer is sent (its message waits on the queue), then cancelled, and the token set
    // again for a minute later.
    assertEquals(1, runtime.sweepTimers().sent());
    assertApplied(List.of(runtime.invoke(command(owner, "cancel:a"))));
    assertApplied(List.of(runtime.invoke(command(owner, "set:60000:a:"))));
    wake(runtime);
    drain(runtime);
    assertEquals(List.of(), fired.texts(), "the old message is dropped, the new one not due yet");
    elapse(Duration.ofSeconds(30));
    wake(runtime);
    runtime.sweepTimers();
    drain(runtime);
    assertEquals(List.of(), fired.texts(), "still not due");
    elapse(Duration.ofSeconds(31));
    wake(runtime);
    runtime.sweepTimers();
    drain(runtime);
    elapse(Duration.ofMinutes(6));
    wake(runtime);
    runtime.sweepTimers();
    drain(runtime);
    assertEquals(List.of("a"), fired.texts());
    assertTrue(store().reload(owner).pendingTokens().isEmpty(), "the token is free");
  }

  @Test
  void aDelayedMessageThatCancelsAnotherDueAtTheSameTimeWinsOnlyIfItRunsFirst() {
    FunctionRuntime runtime = runtime(b -> {}, functions());
    Address owner = address(CHAIN, "cancels");
    // b is due a millisecond before a and cancels it. One sweep sends both, shard after shard
    // (due order holds within a shard only), so either b runs first and a never fires, or a ran
    // before b's cancellation, which then does nothing; never a twice, nor a after b.
    assertApplied(List.of(runtime.invoke(command(owner, "set:1000:b:a"))));
    assertApplied(List.of(runtime.invoke(command(owner, "set:1001:a:"))));
    elapse(Duration.ofSeconds(2));
    runtime.sweepTimers();
    drain(runtime);
    elapse(Duration.ofMinutes(6));
    runtime.sweepTimers();
    drain(runtime);

    List<String> texts = new ArrayList<>(fired.texts());
    assertTrue(texts.equals(List.of("b")) || texts.equals(List.of("a", "b")), texts.toString());
    assertEquals(0, runtime.sweepTimers().sent());
    assertTrue(store().reload(owner).pendingTokens().isEmpty(), "no token left");
  }

  @Test
  void aTimerDueExactlyNowIsSweptAndOneDueAMillisecondLaterIsNot() {
    FunctionRuntime runtime = runtime(b -> {}, functions());
    Address owner = address(CHAIN, "edge");
    assertApplied(List.of(runtime.invoke(command(owner, "set:1000:a:"))));
    elapse(Duration.ofMillis(999));
    assertEquals(0, runtime.sweepTimers().sent(), "a millisecond early");
    elapse(Duration.ofMillis(1));
    assertEquals(1, runtime.sweepTimers().sent(), "due now");
    drain(runtime);
    assertEquals(List.of("a"), fired.texts());
  }

  @Test
  void aClockGoingBackBetweenSweepsSendsNothingEarlyOrTwice() {
    AtomicInteger back = new AtomicInteger();
    java.time.Clock skewed =
        new java.time.Clock() {
          @Override
          public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
          }

          @Override
          public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
          }

          @Override
          public java.time.Instant instant() {
            return clock.instant().minusMillis(back.get());
          }
        };
    FunctionRuntime runtime = runtime(b -> b.clock(skewed), functions());
    Address owner = address(CHAIN, "ntp");
    assertApplied(List.of(runtime.invoke(command(owner, "set:10000:a:"))));
    elapse(Duration.ofMillis(10_500));
    assertEquals(1, runtime.sweepTimers().sent());
    back.set(800);
    assertEquals(0, runtime.sweepTimers().sent(), "sent already");
    // A timer set while the clock is behind is due by that clock: 100 ms after its set.
    assertApplied(List.of(runtime.invoke(command(owner, "set:100:b:"))));
    clock.advance(Duration.ofMillis(99));
    assertEquals(0, runtime.sweepTimers().sent(), "b is not due yet, a is sent already");
    back.set(0);
    assertEquals(1, runtime.sweepTimers().sent(), "b, once the clock is back");
    assertEquals(0, runtime.sweepTimers().sent(), "nothing twice");
    drain(runtime);
    assertEquals(List.of("a", "b"), fired.texts());
  }

  @Test
  void manyMoreDueTimersThanTheSweepLimitGoOutEachOnce() {
    FunctionRuntime runtime = runtime(b -> b.sweepLimit(2), functions());
    List<DirectInvocation> sets = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      sets.add(command(address(CHAIN, "many-" + i), "set:" + (1000 + i) + ":t" + i + ":"));
    }
    assertApplied(runtime.invoke(sets));
    elapse(Duration.ofSeconds(5));
    int sent = 0;
    SweepResult result;
    do {
      result = runtime.sweepTimers(Deadline.after(Duration.ZERO));
      sent += result.sent();
    } while (result.more());
    sent += runtime.sweepTimers().sent();
    assertEquals(60, sent, "each once");
    drain(runtime);
    assertEquals(60, fired.texts().size());
    assertEquals(60, new java.util.HashSet<>(fired.texts()).size());
  }
}
