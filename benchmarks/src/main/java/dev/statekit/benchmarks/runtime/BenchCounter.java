package dev.statekit.benchmarks.runtime;

import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;

/**
 * The functions the cost cases run: a counter that counts its messages and keeps a note of about
 * 200 bytes, so an address's state is a few hundred bytes (under 1 KB, one write unit); and a
 * teller, the same counter that also emits an egress record per message, so each commit has an
 * outbox.
 */
final class BenchCounter {
  static final TypeName TYPE = TypeName.of("bench", "counter");
  static final TypeName TELLER = TypeName.of("bench", "teller");
  static final TypeName EVENTS = TypeName.of("bench", "events");
  static final TypeName DELAYER = TypeName.of("bench", "delayer");
  static final TypeName REPLIER = TypeName.of("bench", "replier");
  static final String REPLY_TEXT = "r".repeat(100);
  static final ValueSpec<Long> COUNT = ValueSpec.named("count").withLongType();
  static final ValueSpec<String> NOTE = ValueSpec.named("note").withUtf8StringType();
  static final String NOTE_TEXT = "n".repeat(200);

  private BenchCounter() {}

  static StatefulFunctions registry() {
    return StatefulFunctions.builder()
        .withFunction(TYPE, BenchCounter::apply, COUNT, NOTE)
        .withFunction(TELLER, BenchCounter::tell, COUNT, NOTE)
        .withFunction(DELAYER, BenchCounter::delay, COUNT, NOTE)
        .withFunction(REPLIER, BenchCounter::reply, COUNT, NOTE)
        .build();
  }

  private static void tell(Context context, Message message) {
    apply(context, message);
    context.send(
        EgressMessageBuilder.forEgress(EVENTS).withValue(context.self().id() + " counted").build());
  }

  /** The counter that answers a call with a reply of about 100 bytes (its count and a text). */
  private static void reply(Context context, Message message) {
    apply(context, message);
    context.send(
        EgressMessageBuilder.forEgress(dev.statekit.function.Reply.EGRESS)
            .withValue(context.storage().get(COUNT).orElse(0L) + " " + REPLY_TEXT)
            .build());
  }

  /** A string sets a delayed message of 1 s to itself; the counter's long counts, as usual. */
  private static void delay(Context context, Message message) {
    if (message.isUtf8String()) {
      context.sendAfter(
          java.time.Duration.ofSeconds(1),
          dev.statekit.function.MessageBuilder.forAddress(context.self()).withValue(1L).build());
    } else {
      apply(context, message);
    }
  }

  private static void apply(Context context, Message message) {
    context.storage().set(COUNT, context.storage().get(COUNT).orElse(0L) + message.asLong());
    context.storage().set(NOTE, NOTE_TEXT);
  }
}
