package dev.statekit.benchmarks.batch;

import dev.statekit.benchmarks.Result;
import dev.statekit.stream.Record;
import dev.statekit.stream.lambda.SourceBatch;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The measurements of {@link BatchEngineSuite}, in the JVM it starts for them: prints its progress
 * and then one {@code RESULT} line per case.
 */
public final class BatchEngineProcess {
  static final String NAME = "batch-engine";

  /** The in-process engine's source hands records over in chunks of this many. */
  private static final int IN_PROCESS_READ_BATCH = 1000;

  /** Unmeasured runs of the measured input before each case's measured ones. */
  private static final int WARM_RUNS = 1;

  private BatchEngineProcess() {}

  /** Runs every selected case ({@code -Dstatekit.batch.*}, as the suite passed them on). */
  public static void main(String[] args) throws Exception {
    List<Result> results = measure(System.out);
    results.forEach(r -> System.out.println(r.line()));
    // Flink's local cluster may leave non-daemon threads behind.
    System.exit(0);
  }

  static List<Result> measure(PrintStream log) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    int records = Integer.getInteger("statekit.batch.records", 200_000);
    int rounds = Integer.getInteger("statekit.batch.rounds", 3);
    if (records < 10_000) {
      throw new IllegalArgumentException(
          "statekit.batch.records is at least 10000, got " + records);
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("statekit.batch.rounds is at least 1, got " + rounds);
    }
    int[] sizes = ints("statekit.batch.sizes", "100,1000");
    int[] shardCounts = ints("statekit.batch.shards", "1,4,16");
    List<Jobs> jobs = jobs(System.getProperty("statekit.batch.jobs", "fraud,count"));
    int warmup = records / 4;
    Transactions input = Transactions.generate(warmup + records);
    log.printf(
        "  %,d transactions of %,d cards (%,d more to warm up), %d ms of event time apart%n",
        records, Transactions.CARDS, warmup, Transactions.SPACING_MILLIS);
    List<Result> results = new ArrayList<>();
    for (Jobs job : jobs) {
      List<Record<byte[]>> warmRecords = InProcessRun.records(input, 0, warmup);
      List<Record<byte[]>> measuredRecords = InProcessRun.records(input, warmup, warmup + records);
      // The warm-up runs keep their outputs: each batch engine case's must be the same ones.
      Outputs warmInProcess = InProcessRun.outputs(job, warmRecords, IN_PROCESS_READ_BATCH);
      CpuTime.Run inProcess =
          median(
              rounds,
              () ->
                  CpuTime.measure(
                      records,
                      () -> InProcessRun.run(job, measuredRecords, IN_PROCESS_READ_BATCH)));
      byte[][] warmData = Arrays.copyOfRange(input.data, 0, warmup);
      byte[][] measuredData = Arrays.copyOfRange(input.data, warmup, warmup + records);
      FlinkRun.run(job, warmData);
      CpuTime.Run flink =
          median(rounds, () -> CpuTime.measure(records, () -> FlinkRun.run(job, measuredData)));
      // Both run the input to its end, which fires every window: they must agree, or the
      // comparison compares different work. So must the batch engine, whose closing records fire
      // its last windows (BatchEngineRun.batches).
      if (inProcess.outputs() != flink.outputs()) {
        throw new IllegalStateException(
            job.label
                + ": the in-process engine gave "
                + inProcess.outputs()
                + " outputs and Flink "
                + flink.outputs()
                + "; the two jobs are not the same");
      }
      log.printf(
          "  %s: in-process %.0f ns/record (%,d outputs), Flink %.0f ns/record (%,d outputs)%n",
          job.label,
          inProcess.processPerRecord(),
          inProcess.outputs(),
          flink.processPerRecord(),
          flink.outputs());
      for (int batchSize : sizes) {
        for (int shards : shardCounts) {
          Outputs warmBatch = new Outputs();
          BatchEngineRun.run(
              job, BatchEngineRun.batches(input, 0, warmup, shards, batchSize), warmBatch);
          Outputs.same(
              job.label + " batch " + batchSize + " shards " + shards + " (warm-up input)",
              warmInProcess,
              warmBatch);
          List<SourceBatch> batches =
              BatchEngineRun.batches(input, warmup, warmup + records, shards, batchSize);
          CpuTime.Run batch =
              median(
                  rounds, () -> CpuTime.measure(records, () -> BatchEngineRun.run(job, batches)));
          if (batch.outputs() != inProcess.outputs()) {
            throw new IllegalStateException(
                job.label
                    + " batch "
                    + batchSize
                    + " shards "
                    + shards
                    + ": the batch engine delivered "
                    + batch.outputs()
                    + " outputs and the in-process engine gave "
                    + inProcess.outputs()
                    + "; the two did not do the same work");
          }
          log.printf(
              "  %s batch %d shards %d: %.0f ns/record (calling thread %.0f), %,d batches,"
                  + " %,d outputs delivered; in-process/batch %.2f%n",
              job.label,
              batchSize,
              shards,
              batch.processPerRecord(),
              batch.threadPerRecord(),
              batches.size(),
              batch.outputs(),
              inProcess.processPerRecord() / batch.processPerRecord());
          results.add(
              Result.of(NAME, job.label + "-b" + batchSize + "-s" + shards)
                  .with("job", job.label)
                  .with("batch", batchSize)
                  .with("shards", shards)
                  .with("records", records)
                  .with("batch_cpu_ns_per_record", batch.processPerRecord())
                  .with("batch_thread_cpu_ns_per_record", batch.threadPerRecord())
                  .with("in_process_cpu_ns_per_record", inProcess.processPerRecord())
                  .with("flink_cpu_ns_per_record", flink.processPerRecord())
                  .with("ratio", inProcess.processPerRecord() / batch.processPerRecord())
                  .with("flink_ratio", flink.processPerRecord() / batch.processPerRecord()));
        }
      }
    }
    return results;
  }

  private static int[] ints(String property, String defaults) {
    String value = System.getProperty(property, defaults);
    try {
      int[] parsed =
          Arrays.stream(value.split(",")).mapToInt(v -> Integer.parseInt(v.trim())).toArray();
      if (Arrays.stream(parsed).anyMatch(n -> n < 1)) {
        throw new NumberFormatException("below 1");
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          property
              + " is a comma-separated list of numbers of at least 1 (e.g. "
              + defaults
              + "), got '"
              + value
              + "'");
    }
  }

  private static List<Jobs> jobs(String value) {
    List<Jobs> jobs = new ArrayList<>();
    for (String name : value.split(",")) {
      Jobs job =
          Arrays.stream(Jobs.values())
              .filter(j -> j.label.equals(name.trim()))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "statekit.batch.jobs names fraud and/or count, comma-separated; got '"
                              + value
                              + "'"));
      jobs.add(job);
    }
    return jobs;
  }

  /**
   * The median of {@code rounds} measured runs, after {@link #WARM_RUNS} unmeasured ones of the
   * same input: the short warm-up input alone left the compiler busy through the first measured
   * runs (the first batch case's process CPU was up to twice its calling thread's).
   */
  private static CpuTime.Run median(int rounds, Measured measured) throws Exception {
    for (int i = 0; i < WARM_RUNS; i++) {
      measured.run();
    }
    List<CpuTime.Run> runs = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      runs.add(measured.run());
    }
    runs.sort((a, b) -> Long.compare(a.processNanos(), b.processNanos()));
    return runs.get(runs.size() / 2);
  }

  private interface Measured {
    CpuTime.Run run() throws Exception;
  }
}
