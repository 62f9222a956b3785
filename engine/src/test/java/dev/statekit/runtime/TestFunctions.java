package dev.statekit.runtime;

import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.time.Duration;

/** Small functions the runtime tests drive. */
final class TestFunctions {
  static final TypeName COUNTER = TypeName.of("test", "counter");
  static final TypeName TOTAL = TypeName.of("test", "total");
  static final TypeName FLAKY = TypeName.of("test", "flaky");
  static final TypeName BLOB = TypeName.of("test", "blob");
  static final TypeName REMINDER = TypeName.of("test", "reminder");
  static final TypeName EXPIRING = TypeName.of("test", "expiring");
  static final TypeName TALLY = TypeName.of("test", "tally");
  static final TypeName ACCOUNT = TypeName.of("test", "account");

  static final TypeName COUNTED = TypeName.of("test", "counted");
  static final TypeName FIRED = TypeName.of("test", "fired");
  static final TypeName SEEN = TypeName.of("test", "seen");

  static final ValueSpec<Long> COUNT = ValueSpec.named("count").withLongType();
  static final ValueSpec<Long> SUM = ValueSpec.named("sum").withLongType();
  static final ValueSpec<String> DATA = ValueSpec.named("data").withUtf8StringType();
  static final ValueSpec<String> WRITTEN =
      ValueSpec.named("written").withUtf8StringType().thatExpireAfterWrite(Duration.ofMinutes(10));
  static final ValueSpec<String> CALLED =
      ValueSpec.named("called").withUtf8StringType().thatExpireAfterCall(Duration.ofMinutes(10));

  private TestFunctions() {}

  static StatefulFunctions registry() {
    return registryWithout(null);
  }

  /** The registry as a deploy that removed {@code removed} has it. */
  static StatefulFunctions registryWithout(TypeName removed) {
    StatefulFunctions.Builder builder = StatefulFunctions.builder();
    if (!COUNTER.equals(removed)) {
      builder.withFunction(COUNTER, TestFunctions::counter, COUNT, SUM);
    }
    return builder
        .withFunction(TOTAL, TestFunctions::total, COUNT, SUM)
        .withFunction(FLAKY, TestFunctions::flaky, COUNT)
        .withFunction(BLOB, TestFunctions::blob, DATA)
        .withFunction(REMINDER, TestFunctions::reminder)
        .withFunction(EXPIRING, TestFunctions::expiring, WRITTEN, CALLED)
        .withFunction(TALLY, TestFunctions::tally, COUNT)
        .withFunction(ACCOUNT, TestFunctions::account, SUM)
        .build();
  }

  /**
   * {@code <total id>:<n>}: counts, tells the total of that id {@code n}, and reports {@code <own
   * id>:<n>} to egress.
   */
  static void tally(Context context, Message message) {
    String[] parts = message.asUtf8String().split(":", 2);
    long n = Long.parseLong(parts[1]);
    context.storage().set(COUNT, context.storage().get(COUNT).orElse(0L) + 1);
    context.send(
        EgressMessageBuilder.forEgress(COUNTED).withValue(context.self().id() + ":" + n).build());
    context.send(MessageBuilder.forAddress(TOTAL, parts[0]).withValue(n).build());
  }

  /**
   * A balance: a long message adds to it and replies the new balance (egress {@code
   * statekit/reply}, as a StateFun function would send it) and reports it to {@link #COUNTED}; a
   * withdrawal past the balance throws; 0 replies nothing; {@code 1_000_000} replies 20 KB.
   */
  static void account(Context context, Message message) {
    long n = message.asLong();
    long balance = context.storage().get(SUM).orElse(0L) + n;
    if (balance < 0) {
      throw new IllegalStateException("insufficient funds: " + (balance - n) + " < " + (-n));
    }
    context.storage().set(SUM, balance);
    context.send(
        EgressMessageBuilder.forEgress(COUNTED).withValue(context.self().id() + ":" + n).build());
    if (n == 1_000_000) {
      context.send(
          EgressMessageBuilder.forEgress(TypeName.parse("statekit/reply"))
              .withValue("x".repeat(20_000))
              .build());
    } else if (n != 0) {
      context.send(
          EgressMessageBuilder.forEgress(TypeName.parse("statekit/reply"))
              .withValue(balance)
              .build());
    }
  }

  /** Counts messages and sums their long values; reports each to egress and to the total. */
  static void counter(Context context, Message message) {
    long n = message.asLong();
    long count = context.storage().get(COUNT).orElse(0L) + 1;
    context.storage().set(COUNT, count);
    context.storage().set(SUM, context.storage().get(SUM).orElse(0L) + n);
    context.send(
        EgressMessageBuilder.forEgress(COUNTED).withValue(context.self().id() + ":" + n).build());
    context.send(MessageBuilder.forAddress(TOTAL, "all").withValue(n).build());
  }

  static void total(Context context, Message message) {
    context.storage().set(COUNT, context.storage().get(COUNT).orElse(0L) + 1);
    context.storage().set(SUM, context.storage().get(SUM).orElse(0L) + message.asLong());
  }

  /** Counts string messages; "fail" throws. */
  static void flaky(Context context, Message message) {
    if ("fail".equals(message.asUtf8String())) {
      throw new IllegalStateException("asked to fail");
    }
    context.storage().set(COUNT, context.storage().get(COUNT).orElse(0L) + 1);
  }

  /** Appends as many characters as the long message says. */
  static void blob(Context context, Message message) {
    String data = context.storage().get(DATA).orElse("");
    context.storage().set(DATA, data + "x".repeat((int) message.asLong()));
  }

  /**
   * {@code set:<millis>:<token>} (token may be empty: no token), {@code cancel:<token>}, {@code
   * fire:<token>}; {@code later:<millis>:<target id>} sends a counter at another address 1 after a
   * delay with a token owned here.
   */
  static void reminder(Context context, Message message) {
    String command = message.asUtf8String();
    String[] parts = command.split(":", 3);
    switch (parts[0]) {
      case "set":
        Message fire =
            MessageBuilder.forAddress(context.self()).withValue("fire:" + parts[2]).build();
        if (parts[2].isEmpty()) {
          context.sendAfter(Duration.ofMillis(Long.parseLong(parts[1])), fire);
        } else {
          context.sendAfter(Duration.ofMillis(Long.parseLong(parts[1])), fire, parts[2]);
        }
        break;
      case "cancel":
        context.cancelDelayedMessage(parts[1]);
        break;
      case "fire":
        context.send(
            EgressMessageBuilder.forEgress(FIRED)
                .withValue(context.self().id() + " fired " + parts[1])
                .build());
        break;
      case "later":
        context.sendAfter(
            Duration.ofMillis(Long.parseLong(parts[1])),
            MessageBuilder.forAddress(COUNTER, parts[2]).withValue(1L).build(),
            "later-" + parts[2]);
        break;
      default:
        throw new IllegalArgumentException("unknown command " + command);
    }
  }

  /** {@code write:<text>} sets both values; {@code read} reports what is there. */
  static void expiring(Context context, Message message) {
    String command = message.asUtf8String();
    if (command.startsWith("write:")) {
      context.storage().set(WRITTEN, command.substring(6));
      context.storage().set(CALLED, command.substring(6));
    }
    context.send(
        EgressMessageBuilder.forEgress(SEEN)
            .withValue(
                context.storage().get(WRITTEN).orElse("-")
                    + "/"
                    + context.storage().get(CALLED).orElse("-"))
            .build());
  }
}
