package dev.statekit.runtime.simulation;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.Reply;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.time.Duration;

/**
 * The simulated application. Every address keeps a log of the commands it applied, in order, so
 * that after a schedule the committed logs say what was applied how often and in which order:
 *
 * <ul>
 *   <li>{@code m <id>}: a plain message;
 *   <li>{@code fan <id> <a,b,...>}: sends {@code m <id>.<k>} to each named address (fan-out, and
 *       fan-in where many send to the hub) and an egress record {@code e <id>}, padded after a
 *       space with {@link #egressPad} characters;
 *   <li>{@code delay <id> <millis> <token> <target>}: sends {@code t <id>} to the target after the
 *       delay, cancellable by the token;
 *   <li>{@code cancel <id> <token>}: cancels it;
 *   <li>{@code t <id>}: a delayed message arriving;
 *   <li>{@code poison <id>}: always fails, so it must be dead-lettered and never applied.
 * </ul>
 *
 * {@code sim/legacy} runs the same function until a deploy removes it.
 */
final class SimFunctions {
  static final TypeName NODE = TypeName.of("sim", "node");
  static final TypeName LEGACY = TypeName.of("sim", "legacy");
  static final TypeName EVENTS = TypeName.of("sim", "events");
  static final ValueSpec<String> LOG = ValueSpec.named("log").withUtf8StringType();

  /**
   * Characters after each egress record's id: records of 150 KB make an address's messages in one
   * batch take more than one commit (the outbox is in the address's item), so the batch runs in
   * rounds. Zero (the default) for small records.
   */
  static volatile int egressPad;

  private SimFunctions() {}

  static StatefulFunctions registry(boolean withLegacy) {
    StatefulFunctions.Builder builder =
        StatefulFunctions.builder().withFunction(NODE, SimFunctions::apply, LOG);
    if (withLegacy) {
      builder.withFunction(LEGACY, SimFunctions::apply, LOG);
    }
    return builder.build();
  }

  /** The address a workload name stands for: {@code l...} is a legacy address, else a node. */
  static Address address(String name) {
    return Address.of(name.startsWith("l") ? LEGACY : NODE, name);
  }

  static void apply(Context context, Message message) {
    String command = message.asUtf8String();
    String[] parts = command.split(" ");
    switch (parts[0]) {
      case "poison":
        throw new IllegalStateException("poison " + parts[1] + " always fails");
      case "fan":
        String[] targets = parts[2].split(",");
        for (int k = 0; k < targets.length; k++) {
          context.send(
              MessageBuilder.forAddress(address(targets[k]))
                  .withValue("m " + parts[1] + "." + k)
                  .build());
        }
        String pad = egressPad > 0 ? " " + ".".repeat(egressPad) : "";
        context.send(
            EgressMessageBuilder.forEgress(EVENTS).withValue("e " + parts[1] + pad).build());
        break;
      case "delay":
        context.sendAfter(
            Duration.ofMillis(Long.parseLong(parts[2])),
            MessageBuilder.forAddress(address(parts[4])).withValue("t " + parts[1]).build(),
            parts[3]);
        break;
      case "cancel":
        context.cancelDelayedMessage(parts[2]);
        break;
      case "m":
      case "t":
        break;
      default:
        throw new IllegalArgumentException("unknown command " + command);
    }
    String log = context.storage().get(LOG).orElse("");
    context.storage().set(LOG, log.isEmpty() ? command : log + "\n" + command);
    // A call's reply: where in the address's log this application put its command (dropped for
    // an invocation that is no call).
    long position = log.isEmpty() ? 1 : log.chars().filter(c -> c == '\n').count() + 2;
    context.send(EgressMessageBuilder.forEgress(Reply.EGRESS).withValue(position).build());
  }
}
