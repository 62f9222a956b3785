package dev.statekit.benchmarks.operators;

import dev.statekit.benchmarks.JvmFork;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Starts a {@link JobProcess} in a fresh JVM with the same flags for both engines. */
final class JobFork {
  /**
   * Fixed heap for both engines, so neither pays for the heap growing mid-run, and touched before
   * the job starts: the first write to each heap page is a kernel page fault, which costs about 10
   * µs on the build machines' VMs, and an engine that allocates faster walks into new pages during
   * the measured run (StateKit's job B took 489,000 faults, 5.7 s of system time, for 10 s of
   * work). A long-running job has paid that once; neither engine's figure should include it.
   */
  static final List<String> JVM_FLAGS =
      List.of("-Xms3g", "-Xmx3g", "-XX:+UseG1GC", "-XX:+AlwaysPreTouch");

  private JobFork() {}

  static Timing.Throughput run(
      String engine, String job, int parallelism, long records, PrintStream log)
      throws IOException, InterruptedException {
    Timing.Throughput[] result = new Timing.Throughput[1];
    List<String> output = new ArrayList<>();
    int status =
        JvmFork.run(
            JVM_FLAGS,
            JobProcess.class,
            List.of(engine, job, Integer.toString(parallelism), Long.toString(records)),
            line -> {
              if (line.startsWith(JobProcess.MARKER)) {
                String[] figures = line.substring(JobProcess.MARKER.length()).split(" ");
                result[0] =
                    new Timing.Throughput(
                        Double.parseDouble(figures[0]), Double.parseDouble(figures[1]));
              } else {
                output.add(line);
              }
            });
    if (status != 0 || result[0] == null) {
      output.forEach(line -> log.println("    | " + line));
      throw new IllegalStateException(
          engine
              + " job "
              + job
              + " at parallelism "
              + parallelism
              + " failed (exit "
              + status
              + ")");
    }
    return result[0];
  }
}
