package dev.statekit.benchmarks.protocol;

import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.statefun.sdk.java.StatefulFunctionSpec;
import org.apache.flink.statefun.sdk.java.handler.RequestReplyHandler;

/**
 * The measured function, written twice: one int state, one egress string per invocation. Each side
 * is written the way its SDK's documentation writes functions.
 */
final class GreeterShapes {
  static final String NAMESPACE = "bench";
  static final String TYPE = "greeter";

  private GreeterShapes() {}

  static dev.statekit.protocol.RequestReplyHandler statekit() {
    TypeName greets = TypeName.of(NAMESPACE, "greets");
    ValueSpec<Integer> seen = ValueSpec.named("seen").withIntType();
    return new dev.statekit.protocol.RequestReplyHandler(
        StatefulFunctions.builder()
            .withFunction(
                TypeName.of(NAMESPACE, TYPE),
                (context, message) -> {
                  message.asUtf8String();
                  int count = context.storage().get(seen).orElse(0) + 1;
                  context.storage().set(seen, count);
                  context.send(
                      EgressMessageBuilder.forEgress(greets)
                          .withValue(
                              "Hello "
                                  + context.self().id()
                                  + "! I have seen you "
                                  + count
                                  + " times.")
                          .build());
                },
                seen)
            .build());
  }

  static RequestReplyHandler sdk() {
    org.apache.flink.statefun.sdk.java.TypeName greets =
        org.apache.flink.statefun.sdk.java.TypeName.typeNameOf(NAMESPACE, "greets");
    org.apache.flink.statefun.sdk.java.ValueSpec<Integer> seen =
        org.apache.flink.statefun.sdk.java.ValueSpec.named("seen").withIntType();
    return new org.apache.flink.statefun.sdk.java.StatefulFunctions()
        .withStatefulFunction(
            StatefulFunctionSpec.builder(
                    org.apache.flink.statefun.sdk.java.TypeName.typeNameOf(NAMESPACE, TYPE))
                .withValueSpec(seen)
                .withSupplier(
                    () ->
                        (context, message) -> {
                          message.asUtf8String();
                          int count = context.storage().get(seen).orElse(0) + 1;
                          context.storage().set(seen, count);
                          context.send(
                              org.apache.flink.statefun.sdk.java.message.EgressMessageBuilder
                                  .forEgress(greets)
                                  .withValue(
                                      "Hello "
                                          + context.self().id()
                                          + "! I have seen you "
                                          + count
                                          + " times.")
                                  .build());
                          return CompletableFuture.completedFuture(null);
                        }))
        .requestReplyHandler();
  }
}
