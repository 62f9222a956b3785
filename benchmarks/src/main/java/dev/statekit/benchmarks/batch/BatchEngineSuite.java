package dev.statekit.benchmarks.batch;

import dev.statekit.benchmarks.JvmFork;
import dev.statekit.benchmarks.Result;
import dev.statekit.benchmarks.Suite;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU time per record of the Lambda batch engine ({@code BatchPipeline} on the in-memory store),
 * for the fraud check and a keyed one-minute tumbling count, in batches of 100 and 1,000 records
 * over 1, 4 and 16 shards; beside it the same jobs on the in-process engine and on Flink's local
 * execution, on the same bytes. CPU time is the process's (every thread, collector and compiler
 * included) over the measured run, after a warm-up run of each case on its own input (whose outputs
 * must be the in-process engine's) and unmeasured runs of the measured input until the compiler
 * settles (at least two); each case runs {@code -Dstatekit.batch.rounds=N} times (default 3) and
 * reports the median. {@code -Dstatekit.batch.records=N} sets the measured records (default
 * 200,000); {@code -Dstatekit.batch.jobs=fraud,count}, {@code -Dstatekit.batch.sizes=100,1000} and
 * {@code -Dstatekit.batch.shards=1,4,16} select cases (defaults: all of those).
 *
 * <p>Each engine measures each job in a JVM of its own ({@link BatchEngineProcess}): Flink's local
 * cluster leaves threads running after a job, whose CPU a later engine's process time would count.
 * The JVMs have a fixed heap touched before anything runs: the first write to a heap page is a
 * kernel page fault (about 10 µs on the build machines' VMs), which a growing heap pays in
 * whichever run happens to grow it.
 */
public final class BatchEngineSuite implements Suite {
  private static final String NAME = "batch-engine";

  /** Every measuring JVM's flags. */
  static final List<String> JVM_FLAGS =
      List.of("-Xms4g", "-Xmx4g", "-XX:+UseG1GC", "-XX:+AlwaysPreTouch");

  /** One case as a measuring JVM printed it. */
  private record Measured(
      String caseName, long processNanos, long threadNanos, long outputs, int batches) {
    static Measured parse(String line) {
      String[] parts = line.substring(BatchEngineProcess.MARKER.length()).split(" ");
      return new Measured(
          parts[0],
          Long.parseLong(parts[1]),
          Long.parseLong(parts[2]),
          Long.parseLong(parts[3]),
          Integer.parseInt(parts[4]));
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "CPU per record of the Lambda batch engine (in-memory store), fraud check and keyed"
        + " one-minute count, batches of 100/1,000 over 1/4/16 shards, beside the in-process"
        + " engine and Flink 2.3 local";
  }

  @Override
  public List<Result> run(PrintStream log) throws Exception {
    BatchOptions options = BatchOptions.fromSystemProperties();
    List<String> flags = new ArrayList<>(JVM_FLAGS);
    System.getProperties()
        .stringPropertyNames()
        .forEach(
            name -> {
              if (name.startsWith(BatchOptions.PREFIX)) {
                flags.add("-D" + name + "=" + System.getProperty(name));
              }
            });
    log.printf(
        "  %,d transactions of %,d cards (%,d more to warm up), %d ms of event time apart;"
            + " each engine a JVM of its own with %s%n",
        options.records(),
        Transactions.CARDS,
        options.warmup(),
        Transactions.SPACING_MILLIS,
        flags);
    List<Result> results = new ArrayList<>();
    Path outputs = Files.createTempFile("statekit-batch-outputs", ".bin");
    try {
      for (Jobs job : options.jobs()) {
        double records = options.records();
        Measured inProcess = measure(flags, "in-process", job, outputs, log).get(0);
        Measured flink = measure(flags, "flink", job, outputs, log).get(0);
        // Both run the input to its end, which fires every window: they must agree, or the
        // comparison compares different work. So must the batch engine, whose closing records
        // fire its last windows (BatchEngineRun.batches).
        if (inProcess.outputs() != flink.outputs()) {
          throw new IllegalStateException(
              job.label
                  + ": the in-process engine gave "
                  + inProcess.outputs()
                  + " outputs and Flink "
                  + flink.outputs()
                  + "; the two jobs are not the same");
        }
        double inProcessPerRecord = inProcess.processNanos() / records;
        double flinkPerRecord = flink.processNanos() / records;
        log.printf(
            "  %s: in-process %.0f ns/record (%,d outputs), Flink %.0f ns/record (%,d outputs)%n",
            job.label, inProcessPerRecord, inProcess.outputs(), flinkPerRecord, flink.outputs());
        for (Measured batch : measure(flags, "batch", job, outputs, log)) {
          if (batch.outputs() != inProcess.outputs()) {
            throw new IllegalStateException(
                job.label
                    + " "
                    + batch.caseName()
                    + ": the batch engine delivered "
                    + batch.outputs()
                    + " outputs and the in-process engine gave "
                    + inProcess.outputs()
                    + "; the two did not do the same work");
          }
          String[] sizeAndShards = batch.caseName().substring(1).split("-s");
          double perRecord = batch.processNanos() / records;
          double threadPerRecord = batch.threadNanos() / records;
          log.printf(
              "  %s batch %s shards %s: %.0f ns/record (calling thread %.0f), %,d batches,"
                  + " %,d outputs delivered; in-process/batch %.2f%n",
              job.label,
              sizeAndShards[0],
              sizeAndShards[1],
              perRecord,
              threadPerRecord,
              batch.batches(),
              batch.outputs(),
              inProcessPerRecord / perRecord);
          results.add(
              Result.of(NAME, job.label + "-" + batch.caseName())
                  .with("job", job.label)
                  .with("batch", Long.parseLong(sizeAndShards[0]))
                  .with("shards", Long.parseLong(sizeAndShards[1]))
                  .with("records", options.records())
                  .with("batch_cpu_ns_per_record", perRecord)
                  .with("batch_thread_cpu_ns_per_record", threadPerRecord)
                  .with("in_process_cpu_ns_per_record", inProcessPerRecord)
                  .with("flink_cpu_ns_per_record", flinkPerRecord)
                  .with("ratio", inProcessPerRecord / perRecord)
                  .with("flink_ratio", flinkPerRecord / perRecord));
        }
      }
    } finally {
      Files.deleteIfExists(outputs);
    }
    return results;
  }

  /** Runs one engine's measurements of {@code job} in a JVM of its own. */
  private static List<Measured> measure(
      List<String> flags, String engine, Jobs job, Path outputs, PrintStream log) throws Exception {
    List<Measured> measured = new ArrayList<>();
    List<String> output = new ArrayList<>();
    int status =
        JvmFork.run(
            flags,
            BatchEngineProcess.class,
            List.of(engine, job.label, outputs.toString()),
            line -> {
              if (line.startsWith(BatchEngineProcess.MARKER)) {
                measured.add(Measured.parse(line));
              } else {
                output.add(line); // logging (Flink's), shown if the run fails
              }
            });
    if (status != 0 || measured.isEmpty()) {
      output.forEach(line -> log.println("    | " + line));
      throw new IllegalStateException(
          "The " + engine + " engine's run of " + job.label + " failed (exit " + status + ")");
    }
    return measured;
  }
}
