package dev.statekit.benchmarks.operators;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts a {@link JobProcess} in a fresh JVM with the same flags for both engines. */
final class JobFork {
  /** Fixed heap for both engines, so neither pays for the heap growing mid-run. */
  static final List<String> JVM_FLAGS = List.of("-Xms3g", "-Xmx3g", "-XX:+UseG1GC");

  private JobFork() {}

  static Timing.Throughput run(
      String engine, String job, int parallelism, long records, PrintStream log)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_FLAGS);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(JobProcess.class.getName());
    command.add(engine);
    command.add(job);
    command.add(Integer.toString(parallelism));
    command.add(Long.toString(records));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    Timing.Throughput result = null;
    List<String> output = new ArrayList<>();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.startsWith(JobProcess.MARKER)) {
          String[] figures = line.substring(JobProcess.MARKER.length()).split(" ");
          result =
              new Timing.Throughput(Double.parseDouble(figures[0]), Double.parseDouble(figures[1]));
        } else {
          output.add(line);
        }
      }
    }
    int status = process.waitFor();
    if (status != 0 || result == null) {
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
    return result;
  }
}
