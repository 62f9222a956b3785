package dev.statekit.benchmarks.protocol;

import dev.statekit.benchmarks.Result;
import dev.statekit.benchmarks.Suite;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.statefun.sdk.java.handler.RequestReplyHandler;
import org.apache.flink.statefun.sdk.java.slice.Slices;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.InvalidProtocolBufferException;

/**
 * Invocations per second of the StateFun request-reply protocol for the greeter shape, StateKit's
 * {@code RequestReplyHandler.invoke} against statefun-sdk-java's {@code RequestReplyHandler} on the
 * same request bytes, each side in a JVM of its own.
 *
 * <p>A user runs one of the two in a JVM, never both: a JVM of its own gives each side its own JIT
 * profiles of the code both call (the JDK's strings, collections and futures), its own heap sized
 * by its own garbage and its own class loading, none of which a shared JVM would let it have. The
 * two JVMs run at the same time but are timed in turn, so that each round pairs the two sides at
 * the same moment: the machine may be shared, and a burst of other work lands on whichever side is
 * running, so the rounds are short and paired (each pair runs the two sides back to back, in ABBA
 * order so neither always goes first), and the reported ratio is the median of the pairs' ratios
 * rather than the ratio of two medians taken at different moments. While one side is timed the
 * other's JVM waits on its input.
 *
 * <p>Options: {@code --same-jvm} times both sides in this JVM instead, the way the suite measured
 * before; {@code --sdk-first} lets the SDK run first in each warm-up pair and in the first measured
 * pair (StateKit does by default).
 */
public final class ProtocolSuite implements Suite {
  private static final int[] BATCH_SIZES = {1, 10};
  private static final long ROUND_NANOS =
      Long.getLong("statekit.protocol.roundMillis", 250) * 1_000_000L;
  private static final int WARMUP_ROUNDS = 12;
  private static final int MEASURED_ROUNDS = Integer.getInteger("statekit.protocol.rounds", 24);

  private boolean sameJvm;
  private boolean sdkFirst;

  @Override
  public String name() {
    return "protocol";
  }

  @Override
  public String description() {
    return "StateFun protocol invocations/s, greeter shape (one int state, one egress),"
        + " batch sizes 1 and 10, against statefun-sdk-java 3.3.0, a JVM per side";
  }

  @Override
  public void options(List<String> options) {
    for (String option : options) {
      switch (option) {
        case "--same-jvm" -> sameJvm = true;
        case "--sdk-first" -> sdkFirst = true;
        default ->
            throw new IllegalArgumentException(
                "protocol takes --same-jvm and --sdk-first, got '" + option + "'");
      }
    }
  }

  @Override
  public List<Result> run(PrintStream log) throws Exception {
    log.println(
        sameJvm
            ? "  both sides in this JVM"
            : "  a JVM per side, flags " + SideFork.jvmFlags() + " as this JVM's");
    List<Result> results = new ArrayList<>();
    for (int batch : BATCH_SIZES) {
      byte[][] requests = ProtocolRequests.of(batch);
      checkSameAnswers(requests);
      if (sameJvm) {
        Rounds ours = new Rounds(Side.STATEKIT.handler(), requests, batch);
        Rounds theirs = new Rounds(Side.SDK.handler(), requests, batch);
        results.add(
            measure(
                batch,
                nanos -> new Round(ours.measure(nanos), Double.NaN),
                nanos -> new Round(theirs.measure(nanos), Double.NaN),
                log));
        log.println("  (checksum " + (ours.checksum() + theirs.checksum()) + ")");
      } else {
        try (SideFork ours = SideFork.start(Side.STATEKIT, batch);
            SideFork theirs = SideFork.start(Side.SDK, batch)) {
          results.add(measure(batch, ours::round, theirs::round, log));
        }
      }
    }
    return results;
  }

  private Result measure(int batch, Round.Timer ours, Round.Timer theirs, PrintStream log) {
    double[] ourRates = new double[MEASURED_ROUNDS];
    double[] theirRates = new double[MEASURED_ROUNDS];
    double[] ratios = new double[MEASURED_ROUNDS];
    double[] ourCpu = new double[MEASURED_ROUNDS];
    double[] theirCpu = new double[MEASURED_ROUNDS];
    for (int round = 0; round < WARMUP_ROUNDS; round++) {
      if (sdkFirst) {
        theirs.round(ROUND_NANOS);
        ours.round(ROUND_NANOS);
      } else {
        ours.round(ROUND_NANOS);
        theirs.round(ROUND_NANOS);
      }
    }
    for (int round = 0; round < MEASURED_ROUNDS; round++) {
      Round our;
      Round their;
      if ((round % 2 == 0) != sdkFirst) {
        our = ours.round(ROUND_NANOS);
        their = theirs.round(ROUND_NANOS);
      } else {
        their = theirs.round(ROUND_NANOS);
        our = ours.round(ROUND_NANOS);
      }
      ourRates[round] = our.rate();
      theirRates[round] = their.rate();
      ourCpu[round] = our.cpuNanos();
      theirCpu[round] = their.cpuNanos();
      ratios[round] = our.rate() / their.rate();
      log.printf(
          "  batch %2d pair %2d: statekit %,.0f/s  sdk %,.0f/s  ratio %.2f%s%n",
          batch,
          round + 1,
          our.rate(),
          their.rate(),
          ratios[round],
          sameJvm
              ? ""
              : String.format(
                  "  (CPU per invocation %.0f ns vs %.0f ns)", our.cpuNanos(), their.cpuNanos()));
    }
    Result result =
        Result.of(name(), "batch" + batch)
            .with("statekit", Math.round(median(ourRates)))
            .with("sdk", Math.round(median(theirRates)))
            .with("ratio", median(ratios));
    if (!sameJvm) {
      // The whole JVM's CPU, collector included: the figure that moves least with the machine's
      // load, since a side waiting for a core spends none.
      result
          .with("statekit_cpu_ns", Math.round(median(ourCpu)))
          .with("sdk_cpu_ns", Math.round(median(theirCpu)))
          .with("cpu_ratio", median(theirCpu) / median(ourCpu));
    }
    return result.with("jvm", sameJvm ? "shared" : "per-side");
  }

  /** Both sides must give equivalent answers, or the comparison means nothing. */
  private static void checkSameAnswers(byte[][] requests) throws InvalidProtocolBufferException {
    dev.statekit.protocol.RequestReplyHandler statekit = GreeterShapes.statekit();
    RequestReplyHandler sdk = GreeterShapes.sdk();
    for (byte[] request : requests) {
      FromFunction ours = FromFunction.parseFrom(statekit.invoke(request));
      FromFunction theirs =
          FromFunction.parseFrom(sdk.handle(Slices.wrap(request)).join().toByteArray());
      if (!ours.equals(theirs)) {
        throw new IllegalStateException(
            "StateKit and the SDK answer differently:\n" + ours + "\nvs\n" + theirs);
      }
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
