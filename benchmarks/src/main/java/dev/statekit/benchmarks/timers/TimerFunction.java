package dev.statekit.benchmarks.timers;

import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.time.Duration;

/**
 * The function the timers suite runs: {@code set:<delay ms>} sends itself {@code fire:<delay
 * ms>:<due ms>} after the delay; the fired message emits {@code <delay ms>:<due ms>} to {@link
 * #FIRED}, whose sink measures how late it came.
 */
final class TimerFunction {
  static final TypeName TYPE = TypeName.of("bench", "timer");
  static final TypeName FIRED = TypeName.of("bench", "fired");

  private TimerFunction() {}

  static StatefulFunctions registry() {
    return StatefulFunctions.builder().withFunction(TYPE, TimerFunction::apply).build();
  }

  private static void apply(Context context, Message message) {
    String[] parts = message.asUtf8String().split(":");
    if (parts[0].equals("set")) {
      long delay = Long.parseLong(parts[1]);
      // The runtime dates the timer with the same clock a moment later: due is within a
      // millisecond or two of the timer's.
      long due = System.currentTimeMillis() + delay;
      context.sendAfter(
          Duration.ofMillis(delay),
          MessageBuilder.forAddress(context.self()).withValue("fire:" + delay + ":" + due).build());
    } else {
      context.send(
          EgressMessageBuilder.forEgress(FIRED).withValue(parts[1] + ":" + parts[2]).build());
    }
  }
}
