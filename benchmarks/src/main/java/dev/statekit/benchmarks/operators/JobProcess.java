package dev.statekit.benchmarks.operators;

/**
 * One engine's job in a JVM of its own: warms the job up on a tenth of the input, runs it on the
 * whole input, and prints {@code THROUGHPUT <end-to-end> <steady>} as its last line.
 *
 * <p>Each measurement gets a fresh JVM, as JMH forks do: the two engines then never share a heap,
 * garbage, lingering threads or the JIT's type profiles of shared JDK code, all of which otherwise
 * favour whichever engine runs first or second.
 */
public final class JobProcess {
  static final String MARKER = "THROUGHPUT ";

  private JobProcess() {}

  /** {@code ENGINE JOB PARALLELISM RECORDS}, e.g. {@code statekit A 2 10000000}. */
  public static void main(String[] args) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    String engine = args[0];
    String job = args[1];
    int parallelism = Integer.parseInt(args[2]);
    long records = Long.parseLong(args[3]);
    run(engine, job, parallelism, records / 10);
    run(engine, job, parallelism, records / 10);
    Timing.Throughput measured = run(engine, job, parallelism, records);
    System.out.println(MARKER + measured.endToEnd() + " " + measured.steady());
    // Flink's local cluster may leave non-daemon threads behind.
    System.exit(0);
  }

  private static Timing.Throughput run(String engine, String job, int parallelism, long records)
      throws Exception {
    boolean a = job.equals("A");
    return switch (engine) {
      case "statekit" ->
          a ? StatekitJobs.jobA(records, parallelism) : StatekitJobs.jobB(records, parallelism);
      case "flink" ->
          a ? FlinkJobs.jobA(records, parallelism) : FlinkJobs.jobB(records, parallelism);
      default -> throw new IllegalArgumentException("engine is statekit or flink: " + engine);
    };
  }
}
