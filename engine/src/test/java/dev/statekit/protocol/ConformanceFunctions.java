package dev.statekit.protocol;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.KafkaEgressMessage;
import dev.statekit.function.KinesisEgressMessage;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.time.Duration;

/**
 * Functions for the protocol tests. {@code test/counter} counts in {@code seen}; {@code
 * test/effects} runs string commands, one per side effect kind.
 */
final class ConformanceFunctions {
  static final TypeName COUNTER = TypeName.of("test", "counter");
  static final TypeName EFFECTS = TypeName.of("test", "effects");
  static final TypeName OUT = TypeName.of("test", "out");

  static final ValueSpec<Integer> SEEN =
      ValueSpec.named("seen").withIntType().thatExpireAfterCall(Duration.ofDays(1));
  static final ValueSpec<Long> TOTAL =
      ValueSpec.named("total").withLongType().thatExpireAfterWrite(Duration.ofMinutes(5));
  static final ValueSpec<String> NOTE = ValueSpec.named("note").withUtf8StringType();

  private ConformanceFunctions() {}

  static StatefulFunctions registry() {
    return StatefulFunctions.builder()
        .withFunction(COUNTER, ConformanceFunctions::count, SEEN, TOTAL, NOTE)
        .withFunction(EFFECTS, ConformanceFunctions::effects, NOTE)
        .build();
  }

  private static void count(Context context, Message message) {
    String argument = message.asUtf8String();
    if (argument.equals("boom")) {
      throw new IllegalStateException("boom on purpose");
    }
    int seen = context.storage().get(SEEN).orElse(0) + 1;
    context.storage().set(SEEN, seen);
    String caller = context.caller().map(Address::toString).orElse("ingress");
    context.send(
        EgressMessageBuilder.forEgress(OUT)
            .withValue(context.self().id() + " " + seen + " " + argument + " from " + caller)
            .build());
  }

  private static void effects(Context context, Message message) {
    String command = message.asUtf8String();
    Message ping = MessageBuilder.forAddress(COUNTER, "x").withValue("ping").build();
    switch (command) {
      case "send":
        context.send(ping);
        break;
      case "delay":
        context.sendAfter(Duration.ofMillis(1500), ping);
        break;
      case "delay-token":
        context.sendAfter(Duration.ofSeconds(2), ping, "t1");
        break;
      case "cancel":
        context.cancelDelayedMessage("t1");
        break;
      case "kafka":
        context.send(
            KafkaEgressMessage.forEgress(OUT)
                .withTopic("topic-a")
                .withUtf8Key("k")
                .withUtf8Value("v")
                .build());
        break;
      case "kinesis":
        context.send(
            KinesisEgressMessage.forEgress(OUT)
                .withStream("stream-a")
                .withUtf8PartitionKey("p")
                .withUtf8ExplicitHashKey("42")
                .withUtf8Value("v")
                .build());
        break;
      case "set":
        context.storage().set(NOTE, "noted");
        break;
      case "remove":
        context.storage().remove(NOTE);
        break;
      default:
        throw new IllegalArgumentException("unknown command " + command);
    }
  }
}
