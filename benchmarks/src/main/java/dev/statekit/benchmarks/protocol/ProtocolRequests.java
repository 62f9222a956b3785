package dev.statekit.benchmarks.protocol;

import org.apache.flink.statefun.sdk.java.types.Types;
import org.apache.flink.statefun.sdk.reqreply.generated.Address;
import org.apache.flink.statefun.sdk.reqreply.generated.ToFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.TypedValue;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.ByteString;

/**
 * The measured requests, the same bytes in every JVM: built by statefun-sdk-java's generated
 * protobuf classes from fixed ids and values.
 */
final class ProtocolRequests {
  static final int DISTINCT_REQUESTS = 64;

  private ProtocolRequests() {}

  /** Distinct ids and state values, so no answer is the same as the previous one. */
  static byte[][] of(int batch) {
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
}
