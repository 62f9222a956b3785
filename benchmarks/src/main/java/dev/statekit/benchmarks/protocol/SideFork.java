package dev.statekit.benchmarks.protocol;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ProtocolProcess} of one side, started with the JVM flags the suite itself was given (so
 * both sides run under the same flags), and timed round by round.
 */
final class SideFork implements AutoCloseable {
  private final Side side;
  private final Process process;
  private final BufferedReader output;
  private final Writer input;
  private final List<String> seen = new ArrayList<>();
  private long checksum;
  private boolean closed;

  private SideFork(Side side, Process process) {
    this.side = side;
    this.process = process;
    this.output =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
  }

  static SideFork start(Side side, int batch) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ProtocolProcess.class.getName());
    command.add(side.label);
    command.add(Integer.toString(batch));
    SideFork fork =
        new SideFork(side, new ProcessBuilder(command).redirectErrorStream(true).start());
    fork.await(ProtocolProcess.READY);
    return fork;
  }

  /**
   * The suite's own JVM flags, less those that would make two JVMs fight over one file or port (a
   * flight recording, an agent, a debugger): profile a side by running {@link ProtocolProcess}
   * directly.
   */
  static List<String> jvmFlags() {
    List<String> flags = new ArrayList<>();
    for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!(flag.startsWith("-XX:StartFlightRecording")
          || flag.startsWith("-XX:FlightRecorderOptions")
          || flag.startsWith("-agentlib")
          || flag.startsWith("-agentpath")
          || flag.startsWith("-javaagent")
          || flag.startsWith("-Xrunjdwp"))) {
        flags.add(flag);
      }
    }
    return flags;
  }

  /** One round of about {@code nanos}. */
  Round round(long nanos) {
    try {
      input.write("round " + nanos + "\n");
      input.flush();
      String[] figures = await(ProtocolProcess.RATE).split(" ");
      return new Round(Double.parseDouble(figures[0]), Double.parseDouble(figures[1]));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The answers' total length in the fork, once it has ended. */
  long checksum() {
    return checksum;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      input.write("quit\n");
      input.flush();
      checksum = Long.parseLong(await(ProtocolProcess.CHECKSUM));
    } finally {
      input.close();
      if (process.waitFor() != 0) {
        throw failed("ended with exit " + process.exitValue());
      }
    }
  }

  /** Reads up to the line starting with {@code marker} and returns the rest of that line. */
  private String await(String marker) throws IOException {
    for (String line = output.readLine(); line != null; line = output.readLine()) {
      if (line.startsWith(marker)) {
        return line.substring(marker.length()).trim();
      }
      seen.add(line);
    }
    process.destroy();
    throw failed("ended before printing " + marker.trim());
  }

  private IllegalStateException failed(String what) {
    return new IllegalStateException(
        "The "
            + side.label
            + " side's JVM "
            + what
            + "; it printed:\n  "
            + String.join("\n  ", seen));
  }
}
