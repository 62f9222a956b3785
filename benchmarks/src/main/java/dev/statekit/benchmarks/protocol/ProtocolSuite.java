package dev.statekit.benchmarks.protocol;

import dev.statekit.benchmarks.Result;
import dev.statekit.benchmarks.Suite;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 */
public final class ProtocolSuite implements Suite {
  private static final int[] BATCH_SIZES = {1, 10};
  private static final int DISTINCT_REQUESTS = 64;
  private static final long ROUND_NANOS = 1_000_000_000L;
  private static final int WARMUP_ROUNDS = 3;
  private static final int MEASURED_ROUNDS = 5;

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
      double[] ours = new double[MEASURED_ROUNDS];
      double[] theirs = new double[MEASURED_ROUNDS];
      for (int round = 0; round < WARMUP_ROUNDS; round++) {
        measureStateKit(statekit, requests, batch);
        measureSdk(sdk, requests, batch);
      }
      for (int round = 0; round < MEASURED_ROUNDS; round++) {
        ours[round] = measureStateKit(statekit, requests, batch);
        theirs[round] = measureSdk(sdk, requests, batch);
        log.printf(
            "  batch %2d round %d: statekit %,.0f/s  sdk %,.0f/s%n",
            batch, round + 1, ours[round], theirs[round]);
      }
      double statekitRate = median(ours);
      double sdkRate = median(theirs);
      results.add(
          Result.of(name(), "batch" + batch)
              .with("statekit", Math.round(statekitRate))
              .with("sdk", Math.round(sdkRate))
              .with("ratio", statekitRate / sdkRate));
    }
    log.println("  (checksum " + sink + ")");
    return results;
  }

  private double measureStateKit(
      dev.statekit.protocol.RequestReplyHandler handler, byte[][] requests, int batch) {
    long calls = 0;
    long start = System.nanoTime();
    long deadline = start + ROUND_NANOS;
    long now;
    do {
      for (int i = 0; i < 256; i++) {
        sink += handler.invoke(requests[(int) (calls++ % requests.length)]).length;
      }
      now = System.nanoTime();
    } while (now < deadline);
    return calls * batch * 1e9 / (now - start);
  }

  private double measureSdk(RequestReplyHandler handler, byte[][] requests, int batch) {
    long calls = 0;
    long start = System.nanoTime();
    long deadline = start + ROUND_NANOS;
    long now;
    do {
      for (int i = 0; i < 256; i++) {
        byte[] request = requests[(int) (calls++ % requests.length)];
        sink += handler.handle(Slices.wrap(request)).join().readableBytes();
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
