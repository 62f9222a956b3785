package dev.statekit.benchmarks.protocol;

import com.sun.management.OperatingSystemMXBean;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * One side of the protocol suite in a JVM of its own, timed on command so that the suite can pair
 * its rounds with the other side's: reads {@code round NANOS} lines on standard input and answers
 * each with {@code RATE <invocations/s> <CPU ns per invocation>}, the CPU time being the whole
 * JVM's (its collector's and compiler's threads too); {@code quit} (or the end of input) prints
 * {@code CHECKSUM <n>} and ends.
 *
 * <p>It prints {@code READY} once the handler and the requests are built, and nothing else runs in
 * it between rounds: while the other side is timed, this JVM waits on its input.
 */
public final class ProtocolProcess {
  static final String READY = "READY";
  static final String RATE = "RATE ";
  static final String CHECKSUM = "CHECKSUM ";

  private ProtocolProcess() {}

  /** {@code SIDE BATCH}, e.g. {@code statekit 10}. */
  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ProtocolProcess statekit|sdk BATCH");
      System.exit(2);
    }
    Side side = Side.named(args[0]);
    int batch = Integer.parseInt(args[1]);
    Rounds rounds = new Rounds(side.handler(), ProtocolRequests.of(batch), batch);
    PrintStream out = System.out;
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    out.println(READY);
    out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
      if (!line.startsWith("round ")) {
        throw new IllegalArgumentException("expected 'round NANOS' or 'quit', got: " + line);
      }
      long cpu = os.getProcessCpuTime();
      double rate = rounds.measure(Long.parseLong(line.substring("round ".length())));
      cpu = os.getProcessCpuTime() - cpu;
      out.println(RATE + rate + " " + (double) cpu / rounds.lastInvocations());
      out.flush();
    }
    out.println(CHECKSUM + rounds.checksum());
    out.flush();
  }
}
