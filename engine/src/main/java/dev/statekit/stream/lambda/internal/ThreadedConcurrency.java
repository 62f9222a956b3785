package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.lambda.BatchConcurrency;
import dev.statekit.telemetry.Telemetry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A batch's independent calls on threads, all at once: one round trip per step. The caller runs the
 * first call itself instead of waiting idle, so a step of two calls hands one over, not two (each
 * hand-over wakes a thread, which costs CPU on both sides). Threads start on demand and end when
 * idle, and are daemons; when all are busy the caller runs the call itself.
 */
public final class ThreadedConcurrency implements BatchConcurrency {
  private final ThreadPoolExecutor pool;

  /** Up to {@code parallelism} calls at once beside the caller's. */
  public ThreadedConcurrency(int parallelism) {
    AtomicInteger count = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            0,
            parallelism,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            runnable -> {
              Thread thread = new Thread(runnable, "statekit-batch-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            },
            new ThreadPoolExecutor.CallerRunsPolicy());
  }

  @Override
  public void runAll(List<Runnable> calls) {
    if (calls.size() == 1) {
      calls.get(0).run();
      return;
    }
    List<Future<?>> others = new ArrayList<>(calls.size());
    for (int i = 1; i < calls.size(); i++) {
      // The invocation's context goes along: metrics (store capacity) and log fields stay its.
      others.add(pool.submit(Telemetry.carry(Executors.callable(calls.get(i)))));
    }
    Throwable[] failures = new Throwable[calls.size()];
    if (!calls.isEmpty()) {
      try {
        calls.get(0).run();
      } catch (RuntimeException | Error e) {
        failures[0] = e;
      }
    }
    boolean interrupted = false;
    for (int i = 0; i < others.size(); i++) {
      while (true) {
        try {
          others.get(i).get();
          break;
        } catch (ExecutionException e) {
          failures[i + 1] = e.getCause();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // every call runs to its end before the step does
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    rethrowFirst(failures);
  }

  /** Errors before exceptions, each in the order of the calls: as {@code ParallelCalls} does. */
  static void rethrowFirst(Throwable[] failures) {
    for (Throwable failure : failures) {
      if (failure instanceof Error error) {
        throw error;
      }
    }
    for (Throwable failure : failures) {
      if (failure instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (failure != null) {
        throw new IllegalStateException(failure);
      }
    }
  }
}
