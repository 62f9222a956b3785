package dev.statekit.entry;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;

/**
 * What the fuzz targets ask of every input's cost: answered or refused within a bound of CPU time
 * on the calling thread, where the reading is done. CPU time, not the clock: on a busy machine a
 * thread waits for a processor, and that wait is no cost of the input's.
 */
final class Quick {
  /** Far more CPU than any input of a fuzz run takes (they take microseconds to milliseconds). */
  static final Duration BOUND = Duration.ofSeconds(2);

  /** A backstop for work that waits rather than computes (a hang), however busy the machine. */
  static final Duration HANG = Duration.ofSeconds(60);

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  static {
    if (!THREADS.isCurrentThreadCpuTimeSupported()) {
      throw new IllegalStateException("This JVM cannot measure a thread's CPU time");
    }
    THREADS.setThreadCpuTimeEnabled(true);
  }

  private Quick() {}

  interface Work {
    void run();
  }

  /** Runs {@code work}, which may throw one of {@code refusals}; fails if it took too long. */
  @SafeVarargs
  static void within(Work work, Class<? extends RuntimeException>... refusals) {
    long cpuBefore = THREADS.getCurrentThreadCpuTime();
    long started = System.nanoTime();
    try {
      work.run();
    } catch (RuntimeException e) {
      boolean documented = false;
      for (Class<? extends RuntimeException> refusal : refusals) {
        documented |= refusal.isInstance(e);
      }
      if (!documented) {
        throw e;
      }
    }
    long cpu = THREADS.getCurrentThreadCpuTime() - cpuBefore;
    long took = System.nanoTime() - started;
    assertTrue(cpu < BOUND.toNanos(), "took " + cpu / 1_000_000 + " ms of CPU");
    assertTrue(took < HANG.toNanos(), "took " + took / 1_000_000 + " ms");
  }
}
