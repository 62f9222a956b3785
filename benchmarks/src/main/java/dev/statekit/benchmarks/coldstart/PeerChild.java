package dev.statekit.benchmarks.coldstart;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.statefun.sdk.java.StatefulFunctionSpec;
import org.apache.flink.statefun.sdk.java.StatefulFunctions;
import org.apache.flink.statefun.sdk.java.TypeName;
import org.apache.flink.statefun.sdk.java.ValueSpec;
import org.apache.flink.statefun.sdk.java.handler.RequestReplyHandler;
import org.apache.flink.statefun.sdk.java.message.EgressMessageBuilder;
import org.apache.flink.statefun.sdk.java.message.MessageBuilder;
import org.apache.flink.statefun.sdk.java.slice.Slices;

/**
 * The peer in a fresh JVM with only statefun-sdk-java (and this class) on the classpath: the
 * greeter written with the SDK, as a plain handler that takes the ToFunction bytes.
 */
public final class PeerChild {
  private PeerChild() {}

  /** Entry point of the child JVM: payload file. */
  public static void main(String[] args) throws Exception {
    long start = System.nanoTime();
    TypeName greets = TypeName.typeNameOf("example", "greets");
    ValueSpec<Integer> seen = ValueSpec.named("seen").withIntType();
    RequestReplyHandler handler =
        new StatefulFunctions()
            .withStatefulFunction(
                StatefulFunctionSpec.builder(TypeName.typeNameOf("example", "greeter"))
                    .withValueSpec(seen)
                    .withSupplier(
                        () ->
                            (context, message) -> {
                              message.asUtf8String();
                              int count = context.storage().get(seen).orElse(0) + 1;
                              context.storage().set(seen, count);
                              String id = context.self().id();
                              context.send(
                                  EgressMessageBuilder.forEgress(greets)
                                      .withValue(
                                          "Hello " + id + "! I have seen you " + count + " times.")
                                      .build());
                              context.send(
                                  MessageBuilder.forAddress(
                                          TypeName.typeNameOf("example", "audit"), "all")
                                      .withValue(id + ":" + count)
                                      .build());
                              return CompletableFuture.completedFuture(null);
                            }))
            .requestReplyHandler();
    long constructed = System.nanoTime();
    byte[] payload = Files.readAllBytes(Path.of(args[0]));
    int size = handler.handle(Slices.wrap(payload)).join().readableBytes();
    long done = System.nanoTime();
    System.out.println(
        "DONE construct_ns="
            + (constructed - start)
            + " prime_ns=0 invoke_ns="
            + (done - constructed)
            + " answer="
            + size);
    System.out.flush();
  }
}
