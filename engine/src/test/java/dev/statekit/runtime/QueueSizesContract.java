package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.QueueIds;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Messages near a queue message's size (256 KiB, body and attributes, SQS's default): whatever the
 * runtime commits it can deliver, and dead-letter when it cannot succeed. A message travels between
 * functions in base64 (4 bytes for 3) but its dead letter is an envelope whose string value is JSON
 * text, where a quote or backslash takes 2 bytes and a control character 6.
 */
abstract class QueueSizesContract extends RuntimeFixture {
  static final TypeName SENDER = TypeName.of("sizes", "sender");

  /** {@code <keep id>:<n>}: sends "fail" and n quotes to that KEEP address (which throws on it). */
  static void sender(Context context, Message message) {
    String[] parts = message.asUtf8String().split(":", 2);
    String value = "fail" + "\"".repeat(Integer.parseInt(parts[1]));
    context.send(
        MessageBuilder.forAddress(QueueCharactersContract.KEEP, parts[0]).withValue(value).build());
  }

  static final TypeName ERRING = TypeName.of("sizes", "erring");

  /**
   * {@code <keep id>:<n>}: sends that KEEP address "fail:", 2,000 control characters and n quotes:
   * it throws with the control characters (its error's first 2,000 characters) as its error.
   */
  static void erring(Context context, Message message) {
    String[] parts = message.asUtf8String().split(":", 2);
    String value = "fail:" + "\u0001".repeat(2000) + "\"".repeat(Integer.parseInt(parts[1]));
    context.send(
        MessageBuilder.forAddress(QueueCharactersContract.KEEP, parts[0]).withValue(value).build());
  }

  static final TypeName DELAYER = TypeName.of("sizes", "delayer");

  /**
   * {@code <keep id>:<n>:<chars>}: delays by a second n messages of that many characters, one to
   * each of the KEEP addresses {@code <keep id>-0} to {@code -<n-1>}: their timers fall due
   * together.
   */
  static void delayer(Context context, Message message) {
    String[] parts = message.asUtf8String().split(":", 3);
    String value = "x".repeat(Integer.parseInt(parts[2]));
    for (int i = 0; i < Integer.parseInt(parts[1]); i++) {
      context.sendAfter(
          Duration.ofSeconds(1),
          MessageBuilder.forAddress(QueueCharactersContract.KEEP, parts[0] + "-" + i)
              .withValue(value)
              .build());
    }
  }

  static final TypeName TOKENED = TypeName.of("sizes", "tokened");

  /**
   * {@code <keep id>:<chars>}: delays by a second, under a cancellation token, a message to that
   * KEEP address of 4,500 CJK characters (3 bytes each in UTF-8) and that many more characters.
   */
  static void tokened(Context context, Message message) {
    String[] parts = message.asUtf8String().split(":", 2);
    context.sendAfter(
        Duration.ofSeconds(1),
        MessageBuilder.forAddress(QueueCharactersContract.KEEP, parts[0])
            .withValue("\u6f22".repeat(4500) + "x".repeat(Integer.parseInt(parts[1])))
            .build(),
        "token");
  }

  static final TypeName ODD_SENDER = TypeName.of("sizes", "odd-sender");
  static final TypeName COUNT_ANY = TypeName.of("sizes", "count-any");

  /** A type name of 2,000 control characters: 1 byte each in UTF-8, 6 as a body's escapes. */
  static final TypeName ODD_TYPE = TypeName.of("sizes", "odd" + "\u0001".repeat(2000));

  /** {@code <count id>:<bytes>}: sends that COUNT_ANY address that many bytes of ODD_TYPE. */
  static void oddSender(Context context, Message message) {
    String[] parts = message.asUtf8String().split(":", 2);
    context.send(
        MessageBuilder.forAddress(COUNT_ANY, parts[0])
            .withRawValue(ODD_TYPE, new byte[Integer.parseInt(parts[1])])
            .build());
  }

  /** Counts the messages it gets, whatever their type. */
  static void countAny(Context context, Message message) {
    context
        .storage()
        .set(TestFunctions.COUNT, context.storage().get(TestFunctions.COUNT).orElse(0L) + 1);
  }

  StatefulFunctions functions() {
    return StatefulFunctions.builder()
        .withFunction(
            QueueCharactersContract.KEEP,
            QueueCharactersContract::keep,
            TestFunctions.DATA,
            TestFunctions.COUNT)
        .withFunction(SENDER, QueueSizesContract::sender)
        .withFunction(ERRING, QueueSizesContract::erring)
        .withFunction(DELAYER, QueueSizesContract::delayer)
        .withFunction(TOKENED, QueueSizesContract::tokened)
        .withFunction(ODD_SENDER, QueueSizesContract::oddSender)
        .withFunction(COUNT_ANY, QueueSizesContract::countAny, TestFunctions.COUNT)
        .build();
  }

  // 180,000 quotes: 240 KB in base64 (the message fits a queue message), 360 KB as the dead
  // letter's JSON (it does not). Either the send is refused at once, with why and nothing
  // committed, or the message, failing on every attempt, reaches the dead-letter queue once: never
  // a committed message whose dead letter the queue refuses on every sweep.
  @Test
  void aMessageIsRefusedWhenSentOrDeadLetteredNeverLeftWithADeadLetterTooLargeToSend() {
    refusedOrDeadLetteredOnce(address(SENDER, "quotes"), "keep-quotes-" + run + ":180000");
  }

  // 120,600 quotes after 2,000 control characters: 164 KB in base64, and a dead letter body of
  // about 253 KB, under a queue message less its 8 KiB margin (what the send checks). The error,
  // 2,000 control characters, is an attribute of the dead letter: escaped, 12 KB. The dead letter
  // as a whole (body and attributes) must still fit, or the send must be refused.
  @Test
  void aDeadLetterWhoseErrorIsEscapedStillFitsAQueueMessage() {
    List<Map.Entry<String, Map<String, String>>> letters =
        refusedOrDeadLetteredOnce(address(ERRING, "errors"), "keep-errors-" + run + ":120600");
    for (Map.Entry<String, Map<String, String>> letter : letters) {
      assertTrue(
          letter.getValue().get("statekit.error").contains("\\u0001"), "the error, readable");
    }
  }

  /**
   * Sends {@code value} to {@code target}, whose function fails on it (or forwards it to one that
   * does), until the runtime gives up; then sweeps. Either the send was refused at once, with why
   * and nothing committed, or the message reached the dead-letter queue once; never is a committed
   * message left whose dead letter the queue refuses on every sweep.
   *
   * @return the dead letters
   */
  private List<Map.Entry<String, Map<String, String>>> refusedOrDeadLetteredOnce(
      Address target, String value) {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), functions());
    DirectResult sent =
        runtime.invoke(
            DirectInvocation.of(MessageBuilder.forAddress(target).withValue(value).build()));
    for (int i = 0; i < 2; i++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      waitForVisibility();
    }
    drain(runtime);
    for (int sweep = 0; sweep < 3; sweep++) {
      clock.advance(Duration.ofMinutes(3));
      runtime.sweepTimers();
    }

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    int left = outboxesLeftLater(runtime);
    if (!sent.succeeded()) {
      String error = sent.errorMessage().orElse("");
      assertTrue(error.contains("more than a queue message holds"), error);
      assertEquals(List.of(), letters, "nothing was committed, so nothing is dead-lettered");
    } else {
      assertEquals(1, letters.size(), "committed, so dead-lettered once; left to send: " + left);
    }
    assertEquals(0, left, "nothing left to send again forever");
    return letters;
  }

  // Ten delayed messages of 80,000 characters, about 107 KB each as a timer's body, fall due
  // together: a sweep sends them in one call, 1 MB in all, where one SendMessageBatch request takes
  // 256 KiB (1 MiB on SQS since 2025) in all. Each must still arrive, once, and no timer be left to
  // be sent again on every sweep.
  @Test
  void delayedMessagesDueTogetherArriveWhateverTheirSizeInAll() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), functions());
    String keepId = "keep-timers-" + run;

    DirectResult sent =
        runtime.invoke(
            DirectInvocation.of(
                MessageBuilder.forAddress(address(DELAYER, "timers"))
                    .withValue(keepId + ":10:80000")
                    .build()));
    elapse(Duration.ofSeconds(2));
    SweepResult sweep = runtime.sweepTimers();
    drain(runtime);
    clock.advance(Duration.ofMinutes(6));
    SweepResult later = runtime.sweepTimers();

    assertTrue(sent.succeeded(), sent::toString);
    assertEquals(0, sweep.failed(), "every due timer sent: " + sweep);
    assertEquals(0, later.sent() + later.failed(), "none left to send again: " + later);
    for (int i = 0; i < 10; i++) {
      var count =
          store()
              .reload(Address.of(QueueCharactersContract.KEEP, keepId + "-" + i))
              .values()
              .get(TestFunctions.COUNT.name());
      assertEquals(
          1,
          count == null ? 0 : dev.statekit.types.Types.longType().deserialize(count.bytes()),
          "once, at " + i);
    }
  }

  // A delayed message whose timer body is 253,800 characters, under a queue message less its
  // margin, but 9,000 bytes more in UTF-8: 4,500 of its characters take 3 bytes each, past what a
  // queue message holds. Either the send is refused at once, or the message arrives: never
  // a timer the queue refuses on every sweep.
  @Test
  void aDelayedMessageIsMeasuredInBytesNotCharacters() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), functions());
    Address keep = Address.of(QueueCharactersContract.KEEP, "keep-token-" + run);
    int chars = 3 * (253_800 - 4_500 - 400) / 4;

    DirectResult sent =
        runtime.invoke(
            DirectInvocation.of(
                MessageBuilder.forAddress(address(TOKENED, "token"))
                    .withValue(keep.id() + ":" + chars)
                    .build()));
    elapse(Duration.ofSeconds(2));
    SweepResult sweep = runtime.sweepTimers();
    drain(runtime);

    if (!sent.succeeded()) {
      String error = sent.errorMessage().orElse("");
      assertTrue(error.contains("more than a queue message holds"), error);
    } else {
      assertEquals(0, sweep.failed(), "the timer sent: " + sweep);
      var count = store().reload(keep).values().get(TestFunctions.COUNT.name());
      assertEquals(
          1, count == null ? 0 : dev.statekit.types.Types.longType().deserialize(count.bytes()));
    }
    clock.advance(Duration.ofMinutes(6));
    SweepResult later = runtime.sweepTimers();
    assertEquals(0, later.sent() + later.failed(), "no timer left to send again: " + later);
  }

  // A type name of 2,000 control characters: 2,000 bytes as a count of characters, 12,000 as the
  // escapes a bundle's body carries it in. A message sized to what a bundle may hold by the count
  // takes 10 KB more as the body that goes out, past the margin. Either the send is refused at
  // once, or the message arrives, once: never a committed message the queue refuses.
  @Test
  void aMessageWhoseTypeNameHoldsCharactersSqsRefusesIsMeasuredAsItGoesOut() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), functions());
    Address sender = address(ODD_SENDER, "odd");
    Address counter = address(COUNT_ANY, "odd");
    long room =
        QueueIds.MAX_MESSAGE_BYTES
            - 8 * 1024
            - 256
            - 2L * (sender.toString().length() + counter.toString().length())
            - 48
            - 76
            - ODD_TYPE.asString().length()
            - 100;
    long bytes = room / 4 * 3 - 2;

    DirectResult sent =
        runtime.invoke(
            DirectInvocation.of(
                MessageBuilder.forAddress(sender).withValue(counter.id() + ":" + bytes).build()));
    drain(runtime);

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    if (!sent.succeeded()) {
      String error = sent.errorMessage().orElse("");
      assertTrue(error.contains("more than a queue message holds"), error);
    } else {
      assertEquals(List.of(), letters.stream().map(Map.Entry::getValue).toList(), "delivered");
      var count = store().reload(counter).values().get(TestFunctions.COUNT.name());
      assertEquals(
          1, count == null ? 0 : dev.statekit.types.Types.longType().deserialize(count.bytes()));
    }
    assertEquals(0, outboxesLeftLater(runtime), "nothing left to send again");
  }
}
