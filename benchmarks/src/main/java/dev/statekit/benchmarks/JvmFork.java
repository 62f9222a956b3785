package dev.statekit.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A class's {@code main} in a fresh JVM on this JVM's class path: the way a suite gives a
 * measurement JVM flags of its own (a fixed, pre-touched heap) or keeps two engines apart.
 */
public final class JvmFork {
  private JvmFork() {}

  /**
   * Runs {@code mainClass} with {@code flags} and {@code args}, handing each line it prints
   * (standard output and error together) to {@code lines} as it comes.
   *
   * @return the process's exit status
   */
  public static int run(
      List<String> flags, Class<?> mainClass, List<String> args, Consumer<String> lines)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(flags);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass.getName());
    command.addAll(args);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lines.accept(line);
      }
    } finally {
      // A suite stopped midway (an exception in a line handler) leaves no JVM behind.
      if (process.isAlive()) {
        process.destroyForcibly();
      }
    }
    return process.waitFor();
  }
}
