package dev.statekit.benchmarks.protocol;

import dev.statekit.benchmarks.Result;
import dev.statekit.benchmarks.Suite;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToIntFunction;
import org.apache.flink.statefun.sdk.java.handler.RequestReplyHandler;
import org.apache.flink.statefun.sdk.java.slice.Slices;
import org.apache.flink.statefun.sdk.java.types.Types;
import org.apache.flink.statefun.sdk.reqreply.generated.Address;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.ToFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.TypedValue;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.ByteString;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.InvalidProtocolBufferException;

/**
 * Invocations per second of the StateFun request-reply protocol for the greeter shape, StateKit's
 * {@code RequestReplyHandler.invoke} against statefun-sdk-java's {@code RequestReplyHandler} on the
 * same request bytes, alternating rounds in one JVM.
 *
 * <p>The machine may be shared: a burst of other work lands on whichever side is running, so the
 * rounds are short and paired (each pair runs the two sides back to back, in ABBA order so neither
 * always goes first), and the reported ratio is the median of the pairs' ratios rather than the
 * ratio of two medians taken at different moments.
 */
public final class ProtocolSuite implements Suite {
  private static final int[] BATCH_SIZES = {1, 10};
  private static final int DISTINCT_REQUESTS = 64;
  private static final long ROUND_NANOS =
      Long.getLong("statekit.protocol.roundMillis", 250) * 1_000_000L;
  private static final int WARMUP_ROUNDS = 12;
  private static final int MEASURED_ROUNDS = Integer.getInteger("statekit.protocol.rounds", 24);

  private long sink;

  @Override
  public String name() {
    return "protocol";
  }

  @Override
  public String description() {
    return "StateFun protocol invocations/s, greeter shape (one int state, one egress),"
        + " batch sizes 1 and 10, against statefun-sdk-java 3.3.0";
  }

  @Override
  public List<Result> run(PrintStream log) throws Exception {
    dev.statekit.protocol.RequestReplyHandler statekit = GreeterShapes.statekit();
    RequestReplyHandler sdk = GreeterShapes.sdk();
    List<Result> results = new ArrayList<>();
    for (int batch : BATCH_SIZES) {
      byte[][] requests = requests(batch);
      checkSameAnswers(statekit, sdk, requests);
      double[] ourRates = new double[MEASURED_ROUNDS];
      double[] theirRates = new double[MEASURED_ROUNDS];
      double[] ratios = new double[MEASURED_ROUNDS];
      // The answer's length goes to the sink, so neither side's work can be optimised away; the
      // SDK's answer is left as the Slice it returns, which a transport writes as it is.
      ToIntFunction<byte[]> ours = request -> statekit.invoke(request).length;
      ToIntFunction<byte[]> theirs =
          request -> sdk.handle(Slices.wrap(request)).join().readableBytes();
      for (int round = 0; round < WARMUP_ROUNDS; round++) {
        measure(ours, requests, batch);
        measure(theirs, requests, batch);
      }
      for (int round = 0; round < MEASURED_ROUNDS; round++) {
        if (round % 2 == 0) {
          ourRates[round] = measure(ours, requests, batch);
          theirRates[round] = measure(theirs, requests, batch);
        } else {
          theirRates[round] = measure(theirs, requests, batch);
          ourRates[round] = measure(ours, requests, batch);
        }
        ratios[round] = ourRates[round] / theirRates[round];
        log.printf(
            "  batch %2d pair %2d: statekit %,.0f/s  sdk %,.0f/s  ratio %.2f%n",
            batch, round + 1, ourRates[round], theirRates[round], ratios[round]);
      }
      double statekitRate = median(ourRates);
      double sdkRate = median(theirRates);
      results.add(
          Result.of(name(), "batch" + batch)
              .with("statekit", Math.round(statekitRate))
              .with("sdk", Math.round(sdkRate))
              .with("ratio", median(ratios)));
    }
    log.println("  (checksum " + sink + ")");
    return results;
  }

  /** Invocations per second of {@code call} over one round, cycling through the requests. */
  private double measure(ToIntFunction<byte[]> call, byte[][] requests, int batch) {
    long calls = 0;
    long start = System.nanoTime();
    long deadline = start + ROUND_NANOS;
    long now;
    do {
      for (int i = 0; i < 256; i++) {
        sink += call.applyAsInt(requests[(int) (calls++ % requests.length)]);
      }
      now = System.nanoTime();
    } while (now < deadline);
    return calls * batch * 1e9 / (now - start);
  }

  /** Distinct ids and state values, so no answer is the same as the previous one. */
  private static byte[][] requests(int batch) {
    byte[][] requests = new byte[DISTINCT_REQUESTS][];
    for (int r = 0; r < DISTINCT_REQUESTS; r++) {
      ToFunction.InvocationBatchRequest.Builder request =
          ToFunction.InvocationBatchRequest.newBuilder()
              .setTarget(
                  Address.newBuilder()
                      .setNamespace(GreeterShapes.NAMESPACE)
                      .setType(GreeterShapes.TYPE)
                      .setId("user-" + r))
              .addState(
                  ToFunction.PersistedValue.newBuilder()
                      .setStateName("seen")
                      .setStateValue(typed(Types.integerType(), r * 7)));
      for (int i = 0; i < batch; i++) {
        request.addInvocations(
            ToFunction.Invocation.newBuilder()
                .setArgument(typed(Types.stringType(), "hello from request " + r)));
      }
      requests[r] = ToFunction.newBuilder().setInvocation(request).build().toByteArray();
    }
    return requests;
  }

  private static <T> TypedValue typed(
      org.apache.flink.statefun.sdk.java.types.Type<T> type, T value) {
    return TypedValue.newBuilder()
        .setTypename(type.typeName().asTypeNameString())
        .setHasValue(true)
        .setValue(ByteString.copyFrom(type.typeSerializer().serialize(value).toByteArray()))
        .build();
  }

  /** Both sides must give equivalent answers, or the comparison means nothing. */
  private static void checkSameAnswers(
      dev.statekit.protocol.RequestReplyHandler statekit,
      RequestReplyHandler sdk,
      byte[][] requests)
      throws InvalidProtocolBufferException {
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
