package dev.statekit.benchmarks.coldstart;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One fresh JVM: started, timed until it prints its {@code DONE} line, then ended. The wall time
 * from {@code ProcessBuilder.start()} to that line is the cold start a caller sees, JVM boot
 * included.
 *
 * @param firstInvokeMs JVM start to the first completed invocation
 * @param constructMs the handler's constructor, as the child measured it
 * @param primeMs the priming hook, as the child measured it (0 when not primed)
 * @param invokeMs the first invocation, as the child measured it
 */
record ChildRun(double firstInvokeMs, double constructMs, double primeMs, double invokeMs) {
  private static final long TIMEOUT_SECONDS = 120;

  static ChildRun start(
      List<String> jvmFlags,
      List<String> classpath,
      String mainClass,
      List<String> args,
      Map<String, String> env)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags);
    command.add("-cp");
    command.add(String.join(java.io.File.pathSeparator, classpath));
    command.add(mainClass);
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(env);
    long started = System.nanoTime();
    Process process = builder.start();
    StringBuilder output = new StringBuilder();
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.startsWith("DONE ")) {
          double wallMs = (System.nanoTime() - started) / 1e6;
          Map<String, Long> figures = figures(line);
          // What the child prints while it exits (a class archive's dump warnings) is drained,
          // so a full pipe cannot hold the exit, and with it the archive, back.
          Thread drain =
              new Thread(
                  () -> {
                    try {
                      while (lines.readLine() != null) {
                        // discarded
                      }
                    } catch (IOException closed) {
                      // the child was ended
                    }
                  },
                  "cold-start-drain");
          drain.setDaemon(true);
          drain.start();
          process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
          return new ChildRun(
              wallMs,
              figures.get("construct_ns") / 1e6,
              figures.get("prime_ns") / 1e6,
              figures.get("invoke_ns") / 1e6);
        }
        output.append(line).append('\n');
      }
    } finally {
      process.destroyForcibly();
    }
    throw new IllegalStateException(
        "The child JVM ("
            + mainClass
            + " "
            + args
            + ") ended without a result. Its output:\n"
            + output);
  }

  private static Map<String, Long> figures(String line) {
    Map<String, Long> figures = new HashMap<>();
    for (String part : line.substring(5).split(" ")) {
      String[] kv = part.split("=", 2);
      figures.put(kv[0], Long.parseLong(kv[1]));
    }
    return figures;
  }
}
