package dev.statekit.benchmarks.batch;

import dev.statekit.benchmarks.JvmFork;
import dev.statekit.benchmarks.Result;
import dev.statekit.benchmarks.Suite;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU time per record of the Lambda batch engine ({@code BatchPipeline} on the in-memory store),
 * for the fraud check and a keyed one-minute tumbling count, in batches of 100 and 1,000 records
 * over 1, 4 and 16 shards; beside it the same jobs on the in-process engine and on Flink's local
 * execution, on the same bytes. CPU time is the process's (every thread, collector and compiler
 * included) over the measured run, after a warm-up run of each case on its own input (checked
 * against the in-process engine's outputs) and one unmeasured run of the measured input; each case
 * runs {@code -Dstatekit.batch.rounds=N} times (default 3) and reports the median. {@code
 * -Dstatekit.batch.records=N} sets the measured records (default 200,000); {@code
 * -Dstatekit.batch.jobs=fraud,count}, {@code -Dstatekit.batch.sizes=100,1000} and {@code
 * -Dstatekit.batch.shards=1,4,16} select cases (defaults: all of those).
 *
 * <p>The three engines run in one JVM of their own ({@link BatchEngineProcess}) with a fixed heap
 * touched before anything runs: the first write to a heap page is a kernel page fault (about 10 µs
 * on the build machines' VMs), and a JVM whose heap grows pays them in whichever case happens to
 * grow it, the first (the in-process engine's) most.
 */
public final class BatchEngineSuite implements Suite {
  /** The measuring JVM's flags; its heap is touched before the first case. */
  static final List<String> JVM_FLAGS =
      List.of("-Xms4g", "-Xmx4g", "-XX:+UseG1GC", "-XX:+AlwaysPreTouch");

  @Override
  public String name() {
    return BatchEngineProcess.NAME;
  }

  @Override
  public String description() {
    return "CPU per record of the Lambda batch engine (in-memory store), fraud check and keyed"
        + " one-minute count, batches of 100/1,000 over 1/4/16 shards, beside the in-process"
        + " engine and Flink 2.3 local";
  }

  @Override
  public List<Result> run(PrintStream log) throws Exception {
    List<String> flags = new ArrayList<>(JVM_FLAGS);
    System.getProperties()
        .stringPropertyNames()
        .forEach(
            name -> {
              if (name.startsWith("statekit.batch.")) {
                flags.add("-D" + name + "=" + System.getProperty(name));
              }
            });
    log.println("  a JVM of its own with " + flags);
    List<Result> results = new ArrayList<>();
    List<String> output = new ArrayList<>();
    int status =
        JvmFork.run(
            flags,
            BatchEngineProcess.class,
            List.of(),
            line -> {
              if (line.startsWith("RESULT ")) {
                results.add(Result.parse(line));
              } else if (line.startsWith("  ")) {
                log.println(line);
              } else {
                output.add(line); // Flink's own logging, shown only if the run fails
              }
            });
    if (status != 0) {
      output.forEach(line -> log.println("    | " + line));
      throw new IllegalStateException("The batch-engine measurements failed (exit " + status + ")");
    }
    return results;
  }
}
