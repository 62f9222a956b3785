package dev.statekit.benchmarks.batch;

import dev.statekit.stream.Record;
import dev.statekit.stream.lambda.SourceBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One engine's measurements of one job for {@link BatchEngineSuite}, in a JVM of its own: {@code
 * in-process|flink|batch JOB OUTPUTS_FILE}, the options as {@code -Dstatekit.batch.*}. The
 * in-process engine writes the outputs of the warm-up input to the file; the batch engine checks
 * each case's against them. Prints progress, then a {@link #MARKER} line per case: {@code MEASURED
 * <case> <process CPU ns> <calling thread CPU ns> <outputs> <batches>}.
 */
public final class BatchEngineProcess {
  static final String MARKER = "MEASURED ";

  /** The in-process engine's source hands records over in chunks of this many. */
  private static final int IN_PROCESS_READ_BATCH = 1000;

  /** Unmeasured runs of the measured input before each case's measured ones, at least. */
  private static final int WARM_RUNS = 2;

  /** ... and at most, while the compiler is still busy. */
  private static final int MOST_WARM_RUNS = 20;

  private static final java.lang.management.CompilationMXBean COMPILER =
      java.lang.management.ManagementFactory.getCompilationMXBean();

  private BatchEngineProcess() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    BatchOptions options = BatchOptions.fromSystemProperties();
    Jobs job = Jobs.named(args[1], args[1]);
    Path outputsFile = Path.of(args[2]);
    int warmup = options.warmup();
    int records = options.records();
    Transactions input = Transactions.generate(warmup + records);
    switch (args[0]) {
      case "in-process" -> {
        List<Record<byte[]>> warm = InProcessRun.records(input, 0, warmup);
        List<Record<byte[]>> measured = InProcessRun.records(input, warmup, warmup + records);
        InProcessRun.outputs(job, warm, IN_PROCESS_READ_BATCH).write(outputsFile);
        print(
            "in-process",
            median(
                options.rounds(),
                () ->
                    CpuTime.measure(
                        records, () -> InProcessRun.run(job, measured, IN_PROCESS_READ_BATCH))),
            0);
      }
      case "flink" -> {
        byte[][] measured = Arrays.copyOfRange(input.data, warmup, warmup + records);
        FlinkRun.run(job, Arrays.copyOfRange(input.data, 0, warmup));
        print(
            "flink",
            median(
                options.rounds(),
                () -> CpuTime.measure(records, () -> FlinkRun.run(job, measured))),
            0);
      }
      case "batch" -> {
        Outputs inProcess = Outputs.read(outputsFile);
        for (int size : options.sizes()) {
          for (int shards : options.shards()) {
            // The warm-up input's outputs must be the in-process engine's, byte for byte.
            Outputs warm = new Outputs();
            BatchEngineRun.run(job, BatchEngineRun.batches(input, 0, warmup, shards, size), warm);
            Outputs.same(
                job.label + " batch " + size + " shards " + shards + " (warm-up input)",
                inProcess,
                warm);
            List<SourceBatch> batches =
                BatchEngineRun.batches(input, warmup, warmup + records, shards, size);
            print(
                "b" + size + "-s" + shards,
                median(
                    options.rounds(),
                    () -> CpuTime.measure(records, () -> BatchEngineRun.run(job, batches))),
                batches.size());
          }
        }
      }
      default ->
          throw new IllegalArgumentException("engine is in-process, flink or batch: " + args[0]);
    }
    System.out.flush();
    // Flink's local cluster may leave non-daemon threads behind.
    System.exit(0);
  }

  private static void print(String caseName, CpuTime.Run run, int batches) {
    System.out.println(
        MARKER
            + caseName
            + " "
            + run.processNanos()
            + " "
            + run.threadNanos()
            + " "
            + run.outputs()
            + " "
            + batches);
  }

  /**
   * The median of {@code rounds} measured runs, after unmeasured ones of the same input until the
   * compiler settles: at least {@link #WARM_RUNS}, and more while the compiler's threads worked
   * more than a tenth of the last one's wall time (at most {@link #MOST_WARM_RUNS}). The short
   * warm-up input alone left the compiler busy through the first measured runs, and two runs of the
   * measured input were not enough either: the batch engine's compiler kept compiling for five runs
   * of 200,000 records, doubling their process CPU (count, b1000 over one shard: 1,440 ms against
   * 640 ms settled, its calling thread 714 against 580).
   */
  private static CpuTime.Run median(int rounds, Measured measured) throws Exception {
    int warm = 0;
    while (warm < MOST_WARM_RUNS) {
      long compiling = COMPILER.getTotalCompilationTime();
      CpuTime.Run run = measured.run();
      warm++;
      long compiledNanos = (COMPILER.getTotalCompilationTime() - compiling) * 1_000_000;
      if (warm >= WARM_RUNS && compiledNanos <= run.wallNanos() / 10) {
        break;
      }
    }
    System.out.println("  " + warm + " unmeasured runs before the measured ones");
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
