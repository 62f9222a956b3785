package dev.statekit.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.statefun.sdk.java.StatefulFunctionSpec;
import org.apache.flink.statefun.sdk.java.slice.Slices;
import org.apache.flink.statefun.sdk.java.types.Types;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.junit.jupiter.api.Test;

/**
 * The same request bytes, answered by StateKit's handler and by statefun-sdk-java 3.3.0's, for the
 * same function (count in an int state, answer its new value).
 */
class SdkParityTest {
  private static final ValueSpec<Integer> SEEN = ValueSpec.named("seen").withIntType();
  private static final org.apache.flink.statefun.sdk.java.ValueSpec<Integer> SDK_SEEN =
      org.apache.flink.statefun.sdk.java.ValueSpec.named("seen").withIntType();

  private final RequestReplyHandler ours =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(
                  TypeName.of("test", "counter"),
                  (context, message) ->
                      context.storage().set(SEEN, context.storage().get(SEEN).orElse(0) + 1),
                  SEEN)
              .build());

  private final org.apache.flink.statefun.sdk.java.handler.RequestReplyHandler sdk =
      new org.apache.flink.statefun.sdk.java.StatefulFunctions()
          .withStatefulFunction(
              StatefulFunctionSpec.builder(
                      org.apache.flink.statefun.sdk.java.TypeName.typeNameFromString(
                          "test/counter"))
                  .withValueSpec(SDK_SEEN)
                  .withSupplier(
                      () ->
                          (context, message) -> {
                            context
                                .storage()
                                .set(SDK_SEEN, context.storage().get(SDK_SEEN).orElse(0) + 1);
                            return CompletableFuture.completedFuture(null);
                          })
                  .build())
          .requestReplyHandler();

  /**
   * A PersistedValue named twice (forged: a runtime sends each state once). protobuf keeps both
   * entries; the SDK takes the first one with the name
   * (StateValueContexts.findPersistedValueByName), StateKit's AddressRun.offer lets the last one
   * overwrite it.
   */
  @Test
  void aStateSentTwiceIsReadAsTheSdkReadsIt() throws Exception {
    byte[] request =
        PeerWire.request("test", "counter", "a")
            .state("seen", PeerWire.integer(10))
            .state("seen", PeerWire.integer(20))
            .message(PeerWire.string("x"))
            .bytes();

    FromFunction sdkAnswer = PeerWire.parse(sdk.handle(Slices.wrap(request)).get().toByteArray());
    FromFunction ourAnswer = PeerWire.parse(ours.invoke(request));

    assertEquals(
        11,
        PeerWire.value(
            Types.integerType(),
            sdkAnswer.getInvocationResult().getStateMutations(0).getStateValue()),
        "the SDK reads the first");
    assertEquals(sdkAnswer, ourAnswer);
  }
}
