package dev.statekit.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Calls bounded by a deadline are waited for until it, however busy the pool: a call the caller ran
 * itself could not be left behind, and one that never got a thread must not start late.
 */
class ParallelCallsUntilTest {
  @Test
  void callsWaitForAThreadAndThoseNotStartedByTheDeadlineNeverStart() throws Exception {
    ParallelCalls parallel = new ParallelCalls(2);
    AtomicInteger started = new AtomicInteger();
    List<Callable<Void>> calls = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      calls.add(
          () -> {
            started.incrementAndGet();
            Thread.sleep(400);
            return null;
          });
    }
    long start = System.nanoTime();
    BitSet finished = parallel.allUntil(calls, Deadline.after(Duration.ofMillis(600)));
    long tookMillis = (System.nanoTime() - start) / 1_000_000;

    assertTrue(tookMillis < 750, "waited until the deadline only: " + tookMillis + " ms");
    assertEquals(2, finished.cardinality(), "two threads, 400 ms each: " + finished);
    Thread.sleep(600);
    assertEquals(4, started.get(), "two ran, two were started when those ended, two never");
  }

  @Test
  void theThreadGivenUpByACallLeftRunningDoesNotStartACallThatWasInLine() throws Exception {
    ParallelCalls parallel = new ParallelCalls(1);
    AtomicInteger inLineRan = new AtomicInteger();
    List<Callable<Void>> calls =
        List.of(
            () -> {
              Thread.sleep(400);
              return null;
            },
            () -> {
              inLineRan.incrementAndGet();
              return null;
            });
    BitSet finished = parallel.allUntil(calls, Deadline.after(Duration.ofMillis(150)));
    assertEquals(0, finished.cardinality());
    Thread.sleep(500);
    assertEquals(0, inLineRan.get(), "the call in line at the deadline never starts");
  }

  @Test
  void callsWhoseSharedThreadsAreAllHeldByOthersStillRunOnThreadsOfTheirOwn() {
    ParallelCalls parallel = new ParallelCalls(1);
    CountDownLatch hold = new CountDownLatch(1);
    CountDownLatch holding = new CountDownLatch(1);
    // Another user of the pool holds its one thread.
    new Thread(
            () ->
                parallel.all(
                    List.<Callable<Void>>of(
                        () -> {
                          holding.countDown();
                          hold.await(10, TimeUnit.SECONDS);
                          return null;
                        },
                        () -> {
                          hold.await(10, TimeUnit.SECONDS);
                          return null;
                        })))
        .start();
    try {
      assertTrue(holding.await(5, TimeUnit.SECONDS));
      AtomicInteger ran = new AtomicInteger();
      List<Callable<Integer>> calls = List.of(ran::incrementAndGet, ran::incrementAndGet);
      BitSet finished = parallel.allUntil(calls, Deadline.after(Duration.ofSeconds(5)));
      assertEquals(2, finished.cardinality());
      assertEquals(2, ran.get());
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    } finally {
      hold.countDown();
    }
  }

  @Test
  void aFinishedCallsFailureIsThrownAndAnUnfinishedOnesIsNot() {
    ParallelCalls parallel = new ParallelCalls(4);
    CountDownLatch hold = new CountDownLatch(1);
    List<Callable<Void>> calls =
        List.of(
            () -> {
              throw new IllegalArgumentException("finished, failed");
            },
            () -> {
              hold.await(10, TimeUnit.SECONDS);
              throw new IllegalStateException("late");
            });
    try {
      IllegalArgumentException thrown =
          assertThrows(
              IllegalArgumentException.class,
              () -> parallel.allUntil(calls, Deadline.after(Duration.ofMillis(300))));
      assertEquals("finished, failed", thrown.getMessage());
    } finally {
      hold.countDown();
    }
  }

  @Test
  void withoutADeadlineEveryCallRunsToItsEnd() {
    ParallelCalls parallel = new ParallelCalls(2);
    AtomicInteger ran = new AtomicInteger();
    List<Callable<Integer>> calls = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      calls.add(ran::incrementAndGet);
    }
    assertEquals(5, parallel.allUntil(calls, Deadline.none()).cardinality());
    assertEquals(5, ran.get());
  }
}
