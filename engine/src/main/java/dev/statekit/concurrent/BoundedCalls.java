package dev.statekit.concurrent;

import dev.statekit.Deadline;
import dev.statekit.telemetry.Telemetry;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls {@link ParallelCalls#allUntil} waits for until a deadline. None runs on the caller,
 * where it could not be left behind: they wait in line for one of {@code parallelism} threads. A
 * call still running at its deadline gives its place up: the pool grows by one thread until it
 * ends, so calls left behind (a function whose dependency hangs) do not hold a later batch's calls
 * back; one that had not started never starts.
 */
final class BoundedCalls {
  private final ThreadPoolExecutor pool;
  private final Object sizing = new Object();
  private int size;

  BoundedCalls(int parallelism) {
    AtomicInteger count = new AtomicInteger();
    this.size = parallelism;
    this.pool =
        new ThreadPoolExecutor(
            parallelism,
            parallelism,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            runnable -> {
              Thread thread = new Thread(runnable, "statekit-bounded-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    pool.allowCoreThreadTimeOut(true);
  }

  /** See {@link ParallelCalls#allUntil}. */
  BitSet run(List<? extends Callable<?>> calls, Deadline deadline) {
    Semaphore ends = new Semaphore(0);
    List<Call> lined = new ArrayList<>(calls.size());
    for (Callable<?> call : calls) {
      Call task = new Call(Telemetry.carry(call), ends);
      lined.add(task);
      pool.execute(task);
    }
    for (int ended = 0; ended < lined.size(); ended++) {
      long left = deadline.remaining().toNanos();
      try {
        if (left <= 0 || !ends.tryAcquire(left, TimeUnit.NANOSECONDS)) {
          break;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    // Those that never started first: the threads given up next could start them.
    lined.forEach(Call::leaveUnstarted);
    BitSet finished = new BitSet(lined.size());
    Throwable first = null;
    for (int i = 0; i < lined.size(); i++) {
      Call task = lined.get(i);
      if (task.leave()) {
        continue;
      }
      finished.set(i);
      Throwable failure = task.failure;
      if (failure instanceof Error || (failure != null && first == null)) {
        first = first instanceof Error ? first : failure;
      }
    }
    if (first instanceof Error error) {
      throw error;
    }
    if (first instanceof RuntimeException failure) {
      throw failure;
    }
    if (first != null) {
      throw new IllegalStateException(first);
    }
    return finished;
  }

  private void resize(int by) {
    synchronized (sizing) {
      size += by;
      // The core size may never exceed the maximum: grow the maximum first, shrink it last.
      if (by > 0) {
        pool.setMaximumPoolSize(size);
        pool.setCorePoolSize(size);
      } else {
        pool.setCorePoolSize(size);
        pool.setMaximumPoolSize(size);
      }
    }
  }

  /** One call in line: waiting, running, ended, or left at the deadline. */
  private final class Call implements Runnable {
    private static final int WAITING = 0;
    private static final int RUNNING = 1;
    private static final int ENDED = 2;
    private static final int LEFT = 3;

    private final AtomicInteger state = new AtomicInteger(WAITING);
    private final Callable<?> call;
    private final Semaphore ends;

    /** What the call threw; written before it is marked ended, read after. */
    private Throwable failure;

    Call(Callable<?> call, Semaphore ends) {
      this.call = call;
      this.ends = ends;
    }

    @Override
    public void run() {
      if (!state.compareAndSet(WAITING, RUNNING)) {
        return;
      }
      try {
        call.call();
      } catch (Throwable t) {
        failure = t;
      } finally {
        if (state.compareAndSet(RUNNING, ENDED)) {
          ends.release();
        } else {
          resize(-1);
        }
      }
    }

    /** At the deadline: a call still in line never starts. */
    void leaveUnstarted() {
      state.compareAndSet(WAITING, LEFT);
    }

    /** At the deadline: whether the call is left unfinished (a running one's place is given up). */
    boolean leave() {
      if (state.compareAndSet(RUNNING, LEFT)) {
        resize(1);
        return true;
      }
      return state.get() == LEFT;
    }
  }
}
