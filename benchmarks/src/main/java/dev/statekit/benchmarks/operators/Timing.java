package dev.statekit.benchmarks.operators;

/**
 * Times a job from its first record leaving the source to its last sink writer closing, so that
 * neither engine's start-up (Flink's local cluster takes seconds) counts as processing time.
 */
final class Timing {
  static volatile long firstRecord;
  static volatile long lastClose;

  private Timing() {}

  static void reset() {
    firstRecord = 0;
    lastClose = 0;
  }

  static void recordStarted(long index) {
    if (index == 0) {
      firstRecord = System.nanoTime();
    }
  }

  static synchronized void writerClosed() {
    lastClose = System.nanoTime();
  }

  /** Records per second over the measured span. */
  static double throughput(long records) {
    return records / ((lastClose - firstRecord) / 1e9);
  }
}
