package dev.statekit.examples.greeter;

import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunction;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.time.Duration;

/**
 * {@code example/greeter}: greets its address id, counting the greetings in {@code seen} (which
 * expires a day after the last call), and tells {@code example/audit/all} about each.
 */
public final class Greeter implements StatefulFunction {
  /** The function type. */
  public static final TypeName TYPE = TypeName.of("example", "greeter");

  /** Where the greetings go. */
  public static final TypeName GREETS = TypeName.of("example", "greets");

  /** How many times this id was greeted. */
  public static final ValueSpec<Integer> SEEN =
      ValueSpec.named("seen").withIntType().thatExpireAfterCall(Duration.ofDays(1));

  @Override
  public void apply(Context context, Message message) {
    message.asUtf8String(); // the argument is a string; anything else fails the message
    int seen = context.storage().get(SEEN).orElse(0) + 1;
    context.storage().set(SEEN, seen);
    String id = context.self().id();
    context.send(
        EgressMessageBuilder.forEgress(GREETS)
            .withValue("Hello " + id + "! I have seen you " + seen + " times.")
            .build());
    context.send(MessageBuilder.forAddress(Audit.TYPE, "all").withValue(id + ":" + seen).build());
  }
}
