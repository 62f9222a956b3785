package dev.statekit.simulation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Runs a deterministic simulation's seeds on every core and hands their outcomes back in seed
 * order, so a run reports the same first failure as one seed after another would. A schedule owns
 * everything it runs on (its clock, store, queues and random source), so seeds run side by side
 * give the same outcomes as run alone; each simulation's test checks that for some of its seeds
 * ({@link #differencesSideBySide}): state shared between schedules (a static field a schedule
 * changes) would make them differ. {@code -Dsimulation.threads=N} sets how many at once (1 for one
 * after another).
 *
 * @param <T> a seed's outcome
 */
public final class SeedRunner<T> implements AutoCloseable {
  private final ExecutorService pool;
  private final LongFunction<T> schedule;
  private final long end;
  private final int ahead;
  private final ArrayDeque<Future<T>> started = new ArrayDeque<>();
  private long next;

  /** Starts running the {@code count} seeds from {@code first} through {@code schedule}. */
  public SeedRunner(long first, long count, LongFunction<T> schedule) {
    int threads =
        Math.max(
            1,
            Integer.getInteger("simulation.threads", Runtime.getRuntime().availableProcessors()));
    this.pool =
        Executors.newFixedThreadPool(
            threads,
            task -> {
              Thread thread = new Thread(task, "simulation-seed");
              thread.setDaemon(true);
              return thread;
            });
    this.schedule = schedule;
    this.next = first;
    this.end = first + count;
    // A few seeds ahead of the one awaited, not all: an outcome holds its schedule's trace.
    this.ahead = threads * 2;
    startMore();
  }

  /** Whether a seed is left to take. */
  public boolean hasNext() {
    return !started.isEmpty();
  }

  /**
   * The outcome of the next seed in order; what its schedule threw, thrown here.
   *
   * @throws IllegalStateException if no seed is left
   */
  public T next() {
    Future<T> first = started.poll();
    if (first == null) {
      throw new IllegalStateException("Every seed was taken");
    }
    startMore();
    try {
      return first.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted waiting for a seed", e);
    }
  }

  private void startMore() {
    while (started.size() < ahead && next < end) {
      long seed = next++;
      started.add(pool.submit(() -> schedule.apply(seed)));
    }
  }

  /**
   * Runs the seeds one after another, then side by side on two threads, and compares each seed's
   * outcome as {@code fingerprint} renders it (its violations and trace).
   *
   * @return the seeds whose outcomes differed
   */
  public static <T> List<Long> differencesSideBySide(
      long first, int count, LongFunction<T> schedule, Function<T, String> fingerprint) {
    List<String> alone = new ArrayList<>();
    for (long seed = first; seed < first + count; seed++) {
      alone.add(fingerprint.apply(schedule.apply(seed)));
    }
    List<Long> differ = new ArrayList<>();
    String threads = System.getProperty("simulation.threads");
    System.setProperty("simulation.threads", "2");
    try (SeedRunner<T> together = new SeedRunner<>(first, count, schedule)) {
      for (int i = 0; together.hasNext(); i++) {
        if (!alone.get(i).equals(fingerprint.apply(together.next()))) {
          differ.add(first + i);
        }
      }
    } finally {
      if (threads == null) {
        System.clearProperty("simulation.threads");
      } else {
        System.setProperty("simulation.threads", threads);
      }
    }
    return differ;
  }

  /** Drops the seeds not started and waits for those running (a failure stops a run early). */
  @Override
  public void close() {
    started.forEach(future -> future.cancel(false));
    pool.shutdown();
    try {
      if (!pool.awaitTermination(2, TimeUnit.MINUTES)) {
        throw new IllegalStateException("A simulation's seed ran on for two minutes after its run");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
