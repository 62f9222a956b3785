package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ThreadedConcurrencyTest {
  private final ThreadedConcurrency concurrency = new ThreadedConcurrency(4);

  @Test
  void theCallerRunsTheFirstCallWhileTheOthersRunBesideIt() {
    Thread caller = Thread.currentThread();
    AtomicReference<Thread> first = new AtomicReference<>();
    AtomicReference<Thread> second = new AtomicReference<>();
    CountDownLatch secondStarted = new CountDownLatch(1);
    AtomicReference<Boolean> together = new AtomicReference<>();
    concurrency.runAll(
        List.of(
            () -> {
              first.set(Thread.currentThread());
              try {
                // Only if the second call runs at the same time does this not time out.
                together.set(secondStarted.await(10, TimeUnit.SECONDS));
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            },
            () -> {
              second.set(Thread.currentThread());
              secondStarted.countDown();
            }));
    assertSame(caller, first.get());
    assertNotSame(caller, second.get());
    assertTrue(together.get());
  }

  @Test
  void everyCallEndsBeforeTheStepDoesAndTheFirstFailureIsThrown() {
    AtomicInteger ended = new AtomicInteger();
    RuntimeException boom = new IllegalStateException("the first call failed");
    Runnable slow =
        () -> {
          try {
            Thread.sleep(200);
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
          ended.incrementAndGet();
        };
    RuntimeException thrown =
        assertThrows(
            RuntimeException.class,
            () ->
                concurrency.runAll(
                    List.of(
                        () -> {
                          throw boom;
                        },
                        slow,
                        slow,
                        () -> {
                          throw new IllegalArgumentException("a later call failed");
                        })));
    assertSame(boom, thrown);
    assertEquals(2, ended.get(), "the step returned before its calls ended");
  }

  @Test
  void anErrorComesBeforeAnException() {
    AssertionError error = new AssertionError("an error in the second call");
    AssertionError thrown =
        assertThrows(
            AssertionError.class,
            () ->
                concurrency.runAll(
                    List.of(
                        () -> {
                          throw new IllegalStateException("an exception in the first");
                        },
                        () -> {
                          throw error;
                        })));
    assertSame(error, thrown);
  }

  @Test
  void moreCallsThanThreadsAllRun() {
    AtomicInteger ran = new AtomicInteger();
    List<Runnable> calls = java.util.Collections.nCopies(40, ran::incrementAndGet);
    concurrency.runAll(calls);
    assertEquals(40, ran.get());
    concurrency.runAll(List.of());
    concurrency.runAll(List.of(ran::incrementAndGet));
    assertEquals(41, ran.get());
  }
}
