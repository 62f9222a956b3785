package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.BusMessage;
import dev.statekit.function.Address;
import dev.statekit.runtime.internal.FaultHook;
import dev.statekit.runtime.internal.WakeUps;
import dev.statekit.runtime.store.TimerKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Delayed messages delivered on time by wake-ups on a standard queue: without a sweep, and harmless
 * when duplicated, early, late, lost or left over from a cancelled timer.
 */
abstract class WakeUpsContract extends RuntimeFixture {

  private FunctionRuntime onTime() {
    return runtime(b -> b.wakeUps(wakeUpQueue().bus()));
  }

  /** Hands every visible wake-up to the runtime, as the wake-up queue's mapping does. */
  private int wake(FunctionRuntime runtime) {
    int handled = 0;
    for (int n; (n = LambdaLikeWorker.pollOnce(wakeUpQueue(), runtime)) > 0; ) {
      handled += n;
    }
    return handled;
  }

  /** The visible wake-ups' bodies, taken off the queue unhandled. */
  private List<String> takeWakeUps() {
    List<String> bodies = new ArrayList<>();
    for (QueueSource.Received r : wakeUpQueue().receive(10)) {
      bodies.add(r.message().body());
      wakeUpQueue().delete(r.receiptHandle());
    }
    return bodies;
  }

  @Test
  void aDelayedMessageIsDeliveredByItsWakeUpWithoutASweep() {
    FunctionRuntime runtime = onTime();
    Address reminder = address(TestFunctions.REMINDER, "on-time");
    assertApplied(List.of(runtime.invoke(DelayedMessagesContract.command(reminder, "set:2000:t"))));

    assertEquals(0, wake(runtime), "hidden until it is due");
    elapse(Duration.ofMillis(2600));
    assertEquals(1, wake(runtime), "shown once due");
    drain(runtime);

    assertEquals(List.of(reminder.id() + " fired t"), fired.texts());
    assertEquals(0, runtime.sweepTimers().sent(), "nothing left for the sweep");
  }

  @Test
  void aDuplicatedWakeUpDoesNothing() {
    FunctionRuntime runtime = onTime();
    Address reminder = address(TestFunctions.REMINDER, "dup");
    runtime.invoke(DelayedMessagesContract.command(reminder, "set:1000:t"));
    elapse(Duration.ofMillis(1500));
    List<String> bodies = takeWakeUps();
    assertEquals(1, bodies.size());
    String body = bodies.get(0);
    // SQS standard queues deliver at least once: the same wake-up three times, two at once.
    wakeUpQueue()
        .bus()
        .send(List.of(new BusMessage("g", "1", body), new BusMessage("g", "2", body)));
    assertEquals(2, wake(runtime));
    drain(runtime);
    wakeUpQueue().bus().send(List.of(new BusMessage("g", "3", body)));
    assertEquals(1, wake(runtime));
    drain(runtime);

    assertEquals(List.of(reminder.id() + " fired t"), fired.texts());
    assertEquals(1, fired.deliveries());
    assertTrue(queue().receive(10).isEmpty(), "the late duplicate sent nothing");
  }

  @Test
  void theWakeUpOfACancelledTimerDoesNothing() {
    FunctionRuntime runtime = onTime();
    Address reminder = address(TestFunctions.REMINDER, "cancelled");
    runtime.invoke(DelayedMessagesContract.command(reminder, "set:1000:drop"));
    assertApplied(
        List.of(runtime.invoke(DelayedMessagesContract.command(reminder, "cancel:drop"))));
    elapse(Duration.ofMillis(1500));

    assertEquals(1, wake(runtime));
    assertTrue(queue().receive(10).isEmpty(), "a cancelled timer sends nothing");
    assertEquals(List.of(), fired.texts());
  }

  @Test
  void anEarlyWakeUpIsPutBackForTheTimeLeft() {
    FunctionRuntime runtime = onTime();
    Address reminder = address(TestFunctions.REMINDER, "early");
    runtime.invoke(DelayedMessagesContract.command(reminder, "set:3000:t"));
    TimerKey key = store().reload(reminder).pendingTokens().get("t");
    // A wake-up shown at once (a clock running ahead put it, or SQS showed it early).
    wakeUpQueue().bus().send(List.of(new BusMessage("g", "e", WakeUps.PREFIX + key.asString())));

    assertEquals(1, wake(runtime), "the early one, handled and put back");
    assertTrue(queue().receive(10).isEmpty(), "nothing sent before its time");
    elapse(Duration.ofMillis(3600));
    assertEquals(2, wake(runtime), "its own wake-up and the one put back");
    drain(runtime);
    assertEquals(List.of(reminder.id() + " fired t"), fired.texts());
    assertEquals(1, fired.deliveries());
  }

  @Test
  void aLostWakeUpIsCoveredByTheSweep() {
    FunctionRuntime runtime = onTime();
    Address reminder = address(TestFunctions.REMINDER, "lost");
    runtime.invoke(DelayedMessagesContract.command(reminder, "set:1000:t"));
    elapse(Duration.ofMillis(1500));
    assertEquals(1, takeWakeUps().size(), "the wake-up, lost");

    assertEquals(1, runtime.sweepTimers().sent());
    drain(runtime);
    assertEquals(List.of(reminder.id() + " fired t"), fired.texts());
  }

  @Test
  void aCrashBetweenTheCommitAndTheWakeUpLeavesTheTimerToTheSweep() {
    FunctionRuntime crashing =
        runtime(
            b ->
                b.wakeUps(wakeUpQueue().bus())
                    .faultHook(
                        (step, address) -> {
                          if (step == FaultHook.Step.COMMITTED) {
                            throw new QueueBatchContract.SimulatedCrash();
                          }
                        }));
    Address reminder = address(TestFunctions.REMINDER, "crash");
    assertThrows(
        RuntimeException.class,
        () -> crashing.invoke(DelayedMessagesContract.command(reminder, "set:1000:t")));
    elapse(Duration.ofMillis(1500));
    assertEquals(0, wake(crashing), "no wake-up was put");

    FunctionRuntime runtime = onTime();
    assertEquals(1, runtime.sweepTimers().sent(), "the committed timer is swept");
    drain(runtime);
    assertEquals(List.of(reminder.id() + " fired t"), fired.texts());
  }

  @Test
  void theSweepWakesATimerDueBeforeItsNextRunOnce() {
    FunctionRuntime runtime = onTime();
    Address reminder = address(TestFunctions.REMINDER, "long");
    runtime.invoke(DelayedMessagesContract.command(reminder, "set:1200000:t"));
    clock.advance(Duration.ofMinutes(20).minusSeconds(2));
    assertEquals(0, wake(runtime), "20 minutes ahead: no wake-up at its commit");

    assertEquals(0, runtime.sweepTimers().sent(), "not due yet");
    assertEquals(0, runtime.sweepTimers().sent(), "a second sweep puts no second wake-up");
    elapse(Duration.ofMillis(2600));
    assertEquals(1, wake(runtime), "one wake-up, put by the sweep, shown once due");
    drain(runtime);
    assertEquals(List.of(reminder.id() + " fired t"), fired.texts());
  }
}
