package dev.statekit.benchmarks.batch;

import java.lang.management.ManagementFactory;

/**
 * CPU time as the JVM counts it: the whole process (every engine thread, the collector and the
 * compiler) and the calling thread alone.
 */
final class CpuTime {
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private CpuTime() {}

  static long process() {
    return OS.getProcessCpuTime();
  }

  static long thread() {
    return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  /** What one measured run cost. */
  record Run(long records, long outputs, long processNanos, long threadNanos, long wallNanos) {
    double processPerRecord() {
      return (double) processNanos / records;
    }

    double threadPerRecord() {
      return (double) threadNanos / records;
    }
  }

  /** Runs {@code body} and measures it. */
  static Run measure(long records, Body body) throws Exception {
    long wall = System.nanoTime();
    long process = process();
    long thread = thread();
    long outputs = body.run();
    return new Run(
        records, outputs, process() - process, thread() - thread, System.nanoTime() - wall);
  }

  interface Body {
    long run() throws Exception;
  }
}
