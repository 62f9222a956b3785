package dev.statekit.concurrent;

import dev.statekit.Deadline;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

/**
 * Runs independent calls (one per address, one per request) at the same time, so a batch costs one
 * round trip per step however many addresses it holds. Threads start on demand and end when idle,
 * and are daemons; when all are busy the caller runs the call itself (nested use cannot deadlock),
 * but for calls bounded by a deadline ({@link #allUntil}), which have threads of their own. Shared
 * with the pipelines' batch store, which writes a batch's keys the same way.
 */
public final class ParallelCalls {
  private final ThreadPoolExecutor pool;
  private final BoundedCalls bounded;
  private final RandomGenerator order;

  private ParallelCalls(RandomGenerator order) {
    this.pool = null;
    this.bounded = null;
    this.order = order;
  }

  /**
   * Calls one at a time on the caller's thread, in an order {@code order} draws: as if they ran at
   * once and finished in that order. For deterministic simulation, where one seed must decide every
   * interleaving.
   */
  public static ParallelCalls inTurn(RandomGenerator order) {
    return new ParallelCalls(order);
  }

  /** At most {@code parallelism} calls at once beside the caller's own. */
  public ParallelCalls(int parallelism) {
    this.order = null;
    AtomicInteger count = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            0,
            parallelism,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            runnable -> {
              Thread thread = new Thread(runnable, "statekit-runtime-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            },
            new ThreadPoolExecutor.CallerRunsPolicy());
    this.bounded = new BoundedCalls(parallelism);
  }

  /**
   * Runs every call and waits for all of them; then throws the first failure, if any, as it was
   * thrown.
   */
  public <T> List<T> all(List<Callable<T>> calls) {
    if (pool == null) {
      return inTurn(calls);
    }
    if (calls.size() <= 1) {
      List<T> result = new ArrayList<>(1);
      calls.forEach(call -> result.add(unchecked(call)));
      return result;
    }
    List<Future<T>> futures = new ArrayList<>(calls.size());
    for (Callable<T> call : calls) {
      // The pool's threads log and record metrics in the caller's context.
      futures.add(pool.submit(dev.statekit.telemetry.Telemetry.carry(call)));
    }
    List<T> results = new ArrayList<>(calls.size());
    RuntimeException runtimeFailure = null;
    Error errorFailure = null;
    for (Future<T> future : futures) {
      try {
        results.add(future.get());
      } catch (ExecutionException e) {
        results.add(null);
        if (e.getCause() instanceof Error && errorFailure == null) {
          errorFailure = (Error) e.getCause();
        } else if (e.getCause() instanceof RuntimeException && runtimeFailure == null) {
          runtimeFailure = (RuntimeException) e.getCause();
        } else if (runtimeFailure == null) {
          runtimeFailure = new IllegalStateException(e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for parallel calls", e);
      }
    }
    if (errorFailure != null) {
      throw errorFailure;
    }
    if (runtimeFailure != null) {
      throw runtimeFailure;
    }
    return results;
  }

  /**
   * Runs every call at the same time, as {@link #all} does, but waits for them only until {@code
   * deadline}, and never on the caller's thread: the calls not finished by then run on unwaited
   * (their results and failures dropped, their threads replaced), and those that had not started
   * never start. Then throws the first failure of a finished call, if any, as it was thrown.
   *
   * @return which calls finished, by their index
   */
  public BitSet allUntil(List<? extends Callable<?>> calls, Deadline deadline) {
    BitSet finished = new BitSet(calls.size());
    if (pool == null || deadline.isUnlimited()) {
      List<Callable<Object>> untyped = new ArrayList<>(calls.size());
      calls.forEach(call -> untyped.add(call::call));
      all(untyped);
      finished.set(0, calls.size());
      return finished;
    }
    return bounded.run(calls, deadline);
  }

  private <T> List<T> inTurn(List<Callable<T>> calls) {
    List<Integer> turns = new ArrayList<>();
    for (int i = 0; i < calls.size(); i++) {
      turns.add(i);
    }
    for (int i = turns.size() - 1; i > 0; i--) {
      int j = order.nextInt(i + 1);
      turns.set(j, turns.set(i, turns.get(j)));
    }
    List<T> results = new ArrayList<>(java.util.Collections.nCopies(calls.size(), (T) null));
    RuntimeException runtimeFailure = null;
    for (int i : turns) {
      try {
        results.set(i, unchecked(calls.get(i)));
      } catch (RuntimeException e) {
        // Like the pool: every call runs, then the first failure is thrown.
        if (runtimeFailure == null) {
          runtimeFailure = e;
        }
      }
    }
    if (runtimeFailure != null) {
      throw runtimeFailure;
    }
    return results;
  }

  private static <T> T unchecked(Callable<T> call) {
    try {
      return call.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
