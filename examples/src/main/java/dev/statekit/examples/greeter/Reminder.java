package dev.statekit.examples.greeter;

import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunction;
import dev.statekit.types.TypeName;
import java.time.Duration;

/**
 * {@code example/reminder}: string commands. {@code set:<millis>:<token>} sends itself {@code
 * fire:<token>} after that many milliseconds, cancellable with {@code cancel:<token>}; {@code
 * fire:<token>} emits {@code fired <token>} to {@code example/reminders}.
 */
public final class Reminder implements StatefulFunction {
  /** The function type. */
  public static final TypeName TYPE = TypeName.of("example", "reminder");

  /** Where fired reminders go. */
  public static final TypeName REMINDERS = TypeName.of("example", "reminders");

  @Override
  public void apply(Context context, Message message) {
    String command = message.asUtf8String();
    if (command.startsWith("set:")) {
      int colon = command.indexOf(':', 4);
      if (colon < 0) {
        throw invalid(command);
      }
      long millis = parseMillis(command.substring(4, colon), command);
      String token = command.substring(colon + 1);
      Message fire = MessageBuilder.forAddress(context.self()).withValue("fire:" + token).build();
      context.sendAfter(Duration.ofMillis(millis), fire, token);
    } else if (command.startsWith("cancel:")) {
      context.cancelDelayedMessage(command.substring("cancel:".length()));
    } else if (command.startsWith("fire:")) {
      String token = command.substring("fire:".length());
      context.send(EgressMessageBuilder.forEgress(REMINDERS).withValue("fired " + token).build());
    } else {
      throw invalid(command);
    }
  }

  private static long parseMillis(String millis, String command) {
    try {
      return Long.parseLong(millis);
    } catch (NumberFormatException e) {
      throw invalid(command);
    }
  }

  private static IllegalArgumentException invalid(String command) {
    return new IllegalArgumentException(
        "Unknown reminder command '"
            + command
            + "'; use set:<millis>:<token>, cancel:<token> or fire:<token>");
  }
}
