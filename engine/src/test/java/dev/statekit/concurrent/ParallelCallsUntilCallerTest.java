package dev.statekit.concurrent;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * A call bounded by a deadline must never run on the caller: there it cannot be left behind, and a
 * call that does not answer in time holds the whole batch past its deadline. The caller runs one
 * itself whenever none of its calls holds a thread and the pool refuses the next, which happens
 * right after the pool's own thread ended the call before: the thread says the call ended before it
 * is back waiting for work, so the pool refuses the next call for a moment.
 */
class ParallelCallsUntilCallerTest {
  @Test
  void aCallAfterOneThatEndedIsNotRunOnTheCallerPastTheDeadline() {
    List<String> late = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      // A pool as a new execution environment has it: its one thread starts with the first call.
      ParallelCalls parallel = new ParallelCalls(1);
      List<Callable<Void>> calls = new ArrayList<>();
      calls.add(() -> null);
      calls.add(
          () -> {
            Thread.sleep(600);
            return null;
          });
      long start = System.nanoTime();
      parallel.allUntil(calls, Deadline.after(Duration.ofMillis(200)));
      long tookMillis = (System.nanoTime() - start) / 1_000_000;
      if (tookMillis >= 400) {
        late.add("run " + i + ": " + tookMillis + " ms");
      }
    }
    assertTrue(late.isEmpty(), "waited past a 200 ms deadline for the slow call: " + late);
  }

  /**
   * A call left behind at one deadline (a function that hangs) holds its thread into the next
   * batch, as Lambda's next invocation in the same environment runs while it still runs; the next
   * batch's calls then run on the caller, and one that hangs too holds that batch past its
   * deadline.
   */
  @Test
  void aCallLeftBehindByTheLastBatchDoesNotMakeTheNextRunOnTheCaller() {
    ParallelCalls parallel = new ParallelCalls(1);
    List<Callable<Void>> hanging =
        List.of(
            () -> {
              Thread.sleep(1500);
              return null;
            });
    parallel.allUntil(hanging, Deadline.after(Duration.ofMillis(100)));

    long start = System.nanoTime();
    parallel.allUntil(hanging, Deadline.after(Duration.ofMillis(200)));
    long tookMillis = (System.nanoTime() - start) / 1_000_000;

    assertTrue(tookMillis < 400, "waited past a 200 ms deadline: " + tookMillis + " ms");
  }
}
