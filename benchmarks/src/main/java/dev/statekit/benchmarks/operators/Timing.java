package dev.statekit.benchmarks.operators;

/**
 * Times a job two ways: end to end (submitting the job until it returns, as a user waits for it,
 * start-up included) and steady (from the first record leaving the source to the last sink writer
 * closing, without the engine's start-up: Flink's local cluster takes a second or two).
 */
final class Timing {
  static volatile long submitted;
  static volatile long returned;
  static volatile long firstRecord;
  static volatile long lastClose;

  private Timing() {}

  static void reset() {
    firstRecord = 0;
    lastClose = 0;
    submitted = System.nanoTime();
  }

  static void done() {
    returned = System.nanoTime();
  }

  static void recordStarted(long index) {
    if (index == 0) {
      firstRecord = System.nanoTime();
    }
  }

  static synchronized void writerClosed() {
    lastClose = System.nanoTime();
  }

  /** Records per second end to end and steady. */
  static Throughput throughput(long records) {
    return new Throughput(
        records / ((returned - submitted) / 1e9), records / ((lastClose - firstRecord) / 1e9));
  }

  /** The medians of several rounds' end-to-end and steady throughputs, each on its own. */
  static Throughput median(java.util.List<Throughput> rounds) {
    double[] endToEnd = rounds.stream().mapToDouble(Throughput::endToEnd).sorted().toArray();
    double[] steady = rounds.stream().mapToDouble(Throughput::steady).sorted().toArray();
    return new Throughput(median(endToEnd), median(steady));
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /**
   * One job's throughput.
   *
   * @param endToEnd records per second from submission to return
   * @param steady records per second from the first record to the last sink close
   */
  record Throughput(double endToEnd, double steady) {}
}
