package dev.statekit.examples.greeter;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.statefun.sdk.java.Context;
import org.apache.flink.statefun.sdk.java.StatefulFunctionSpec;
import org.apache.flink.statefun.sdk.java.StatefulFunctions;
import org.apache.flink.statefun.sdk.java.TypeName;
import org.apache.flink.statefun.sdk.java.ValueSpec;
import org.apache.flink.statefun.sdk.java.handler.RequestReplyHandler;
import org.apache.flink.statefun.sdk.java.io.KafkaEgressMessage;
import org.apache.flink.statefun.sdk.java.io.KinesisEgressMessage;
import org.apache.flink.statefun.sdk.java.message.EgressMessageBuilder;
import org.apache.flink.statefun.sdk.java.message.Message;
import org.apache.flink.statefun.sdk.java.message.MessageBuilder;

/** The example functions and the effects function written with statefun-sdk-java. */
final class SdkTwins {
  private static final TypeName GREETER = TypeName.typeNameOf("example", "greeter");
  private static final TypeName AUDIT = TypeName.typeNameOf("example", "audit");
  private static final TypeName REMINDER = TypeName.typeNameOf("example", "reminder");
  private static final TypeName EFFECTS = TypeName.typeNameOf("example", "effects");
  private static final ValueSpec<Integer> SEEN =
      ValueSpec.named("seen").thatExpiresAfterCall(Duration.ofDays(1)).withIntType();
  private static final ValueSpec<Long> TOTAL = ValueSpec.named("total").withLongType();
  private static final ValueSpec<String> NOTE =
      ValueSpec.named("note").thatExpireAfterWrite(Duration.ofMinutes(5)).withUtf8StringType();

  private SdkTwins() {}

  static RequestReplyHandler handler() {
    return new StatefulFunctions()
        .withStatefulFunction(
            StatefulFunctionSpec.builder(GREETER)
                .withValueSpec(SEEN)
                .withSupplier(() -> SdkTwins::greeter))
        .withStatefulFunction(
            StatefulFunctionSpec.builder(AUDIT)
                .withValueSpec(TOTAL)
                .withSupplier(() -> SdkTwins::audit))
        .withStatefulFunction(
            StatefulFunctionSpec.builder(REMINDER).withSupplier(() -> SdkTwins::reminder))
        .withStatefulFunction(
            StatefulFunctionSpec.builder(EFFECTS)
                .withValueSpecs(NOTE, SEEN)
                .withSupplier(() -> SdkTwins::effects))
        .requestReplyHandler();
  }

  private static CompletableFuture<Void> greeter(Context context, Message message) {
    message.asUtf8String();
    int seen = context.storage().get(SEEN).orElse(0) + 1;
    context.storage().set(SEEN, seen);
    String id = context.self().id();
    context.send(
        EgressMessageBuilder.forEgress(TypeName.typeNameOf("example", "greets"))
            .withValue("Hello " + id + "! I have seen you " + seen + " times.")
            .build());
    context.send(MessageBuilder.forAddress(AUDIT, "all").withValue(id + ":" + seen).build());
    return context.done();
  }

  private static CompletableFuture<Void> audit(Context context, Message message) {
    long total = context.storage().get(TOTAL).orElse(0L) + 1;
    context.storage().set(TOTAL, total);
    context.send(
        EgressMessageBuilder.forEgress(TypeName.typeNameOf("example", "audits"))
            .withValue("total=" + total + " last=" + message.asUtf8String())
            .build());
    return context.done();
  }

  private static CompletableFuture<Void> reminder(Context context, Message message) {
    String command = message.asUtf8String();
    if (command.startsWith("set:")) {
      int colon = command.indexOf(':', 4);
      long millis = Long.parseLong(command.substring(4, colon));
      String token = command.substring(colon + 1);
      Message fire = MessageBuilder.forAddress(context.self()).withValue("fire:" + token).build();
      context.sendAfter(Duration.ofMillis(millis), token, fire);
    } else if (command.startsWith("cancel:")) {
      context.cancelDelayedMessage(command.substring("cancel:".length()));
    } else {
      context.send(
          EgressMessageBuilder.forEgress(TypeName.typeNameOf("example", "reminders"))
              .withValue("fired " + command.substring("fire:".length()))
              .build());
    }
    return context.done();
  }

  private static CompletableFuture<Void> effects(Context context, Message message) {
    String[] command = message.asUtf8String().split(":", 2);
    String argument = command.length > 1 ? command[1] : "";
    String caller =
        context.caller().map(a -> a.type().asTypeNameString() + "/" + a.id()).orElse("-");
    switch (command[0]) {
      case "send":
        context.send(MessageBuilder.forAddress(GREETER, argument).withValue(caller).build());
        break;
      case "send-int":
        context.send(
            MessageBuilder.forAddress(EFFECTS, argument).withValue(argument.length()).build());
        break;
      case "delay":
        context.sendAfter(
            Duration.ofMillis(argument.length() * 100L),
            MessageBuilder.forAddress(EFFECTS, "later").withValue(true).build());
        break;
      case "kafka":
        context.send(
            KafkaEgressMessage.forEgress(TypeName.typeNameOf("example", "kafka"))
                .withTopic("topic-" + argument)
                .withUtf8Key(caller)
                .withUtf8Value(argument)
                .build());
        break;
      case "kinesis":
        context.send(
            KinesisEgressMessage.forEgress(TypeName.typeNameOf("example", "kinesis"))
                .withStream("stream-" + argument)
                .withUtf8PartitionKey(argument.isEmpty() ? "p" : argument)
                .withUtf8Value(caller)
                .build());
        break;
      case "note":
        context.storage().set(NOTE, argument + "/" + context.storage().get(NOTE).orElse(""));
        break;
      case "forget":
        context.storage().remove(NOTE);
        break;
      case "count":
        context.storage().set(SEEN, context.storage().get(SEEN).orElse(0) + argument.length());
        context.send(
            EgressMessageBuilder.forEgress(TypeName.typeNameOf("example", "counts"))
                .withValue((long) context.storage().get(SEEN).orElse(0))
                .build());
        break;
      default:
        throw new IllegalArgumentException(message.asUtf8String());
    }
    return context.done();
  }
}
