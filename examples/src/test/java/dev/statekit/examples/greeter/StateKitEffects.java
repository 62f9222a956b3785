package dev.statekit.examples.greeter;

import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.KafkaEgressMessage;
import dev.statekit.function.KinesisEgressMessage;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunction;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.time.Duration;

/** {@code example/effects}: one command per side effect kind, the twin of SdkTwins#effects. */
final class StateKitEffects implements StatefulFunction {
  static final TypeName TYPE = TypeName.of("example", "effects");
  static final ValueSpec<String> NOTE =
      ValueSpec.named("note").withUtf8StringType().thatExpireAfterWrite(Duration.ofMinutes(5));

  @Override
  public void apply(Context context, Message message) {
    String[] command = message.asUtf8String().split(":", 2);
    String argument = command.length > 1 ? command[1] : "";
    String caller = context.caller().map(Object::toString).orElse("-");
    switch (command[0]) {
      case "send":
        context.send(MessageBuilder.forAddress(Greeter.TYPE, argument).withValue(caller).build());
        break;
      case "send-int":
        context.send(
            MessageBuilder.forAddress(TYPE, argument).withValue(argument.length()).build());
        break;
      case "delay":
        context.sendAfter(
            Duration.ofMillis(argument.length() * 100L),
            MessageBuilder.forAddress(TYPE, "later").withValue(true).build());
        break;
      case "kafka":
        context.send(
            KafkaEgressMessage.forEgress(TypeName.of("example", "kafka"))
                .withTopic("topic-" + argument)
                .withUtf8Key(caller)
                .withUtf8Value(argument)
                .build());
        break;
      case "kinesis":
        context.send(
            KinesisEgressMessage.forEgress(TypeName.of("example", "kinesis"))
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
        context
            .storage()
            .set(Greeter.SEEN, context.storage().get(Greeter.SEEN).orElse(0) + argument.length());
        context.send(
            EgressMessageBuilder.forEgress(TypeName.of("example", "counts"))
                .withValue((long) context.storage().get(Greeter.SEEN).orElse(0))
                .build());
        break;
      default:
        throw new IllegalArgumentException(message.asUtf8String());
    }
  }
}
