package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.bus.BusMessage;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.EgressSink;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.json.PlainJson;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * User data holding characters SQS refuses in a message body or attribute (anything but {@code #x9
 * | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF}): a value, an address id, a
 * cancellation token, an error message. Each message that carries it still arrives once with it
 * exact, and each one that cannot succeed reaches the dead-letter queue once: nothing is refused by
 * the queue and left to be sent again forever. The in-memory queues refuse such bodies as SQS does.
 */
abstract class QueueCharactersContract extends RuntimeFixture {
  /** Two noncharacters and a control character, all valid in a Java string and in JSON escapes. */
  static final String ODD = "a\uFFFEb\uFFFFc\u0001d";

  static final TypeName KEEP = TypeName.of("chars", "keep");
  static final TypeName RELAY = TypeName.of("chars", "relay");

  /**
   * Keeps the last string it got and counts; a value starting with "fail" throws ("fail:" + text
   * throws with that text as the error).
   */
  static void keep(Context context, Message message) {
    String text = message.asUtf8String();
    if (text.startsWith("fail")) {
      throw new IllegalStateException(text.startsWith("fail:") ? text.substring(5) : "a bug");
    }
    context.storage().set(TestFunctions.DATA, text);
    context
        .storage()
        .set(TestFunctions.COUNT, context.storage().get(TestFunctions.COUNT).orElse(0L) + 1);
  }

  /**
   * {@code <keep id>}: sends {@link #ODD} to the KEEP address of that id now, to {@code <id>-later}
   * in a second under a token holding {@link #ODD}, and to egress {@code COUNTED}.
   */
  static void relay(Context context, Message message) {
    String id = message.asUtf8String();
    context.send(MessageBuilder.forAddress(KEEP, id).withValue(ODD).build());
    context.sendAfter(
        Duration.ofSeconds(1),
        MessageBuilder.forAddress(KEEP, id + "-later").withValue(ODD).build(),
        "token-" + ODD);
    context.send(EgressMessageBuilder.forEgress(TestFunctions.COUNTED).withValue(ODD).build());
  }

  StatefulFunctions functions() {
    return StatefulFunctions.builder()
        .withFunction(KEEP, QueueCharactersContract::keep, TestFunctions.DATA, TestFunctions.COUNT)
        .withFunction(RELAY, QueueCharactersContract::relay)
        .build();
  }

  // A producer sends a value with such characters as JSON escapes (the only way SQS takes them);
  // the function fails on every attempt. Its dead letter carries the value exact and arrives once.
  @Test
  void aFailingMessageWhoseValueHoldsCharactersSqsRefusesIsDeadLetteredOnceWithItsValue() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), functions());
    Address target = address(KEEP, "dl-value");
    sendEscaped(target, "fail" + ODD);

    attemptTwiceAndSweep(runtime);

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(1, letters.size(), "one dead letter: " + letters);
    assertEquals("fail" + ODD, envelopeValue(letters.get(0).getKey()), "the value, exact");
    assertEquals("no", letters.get(0).getValue().get("statekit.applied"));
    assertEquals(0, outboxesLeftLater(runtime), "nothing left to send again");
    sendEscaped(target, "fine");
    drain(runtime);
    assertEquals(1, count(target), "the address carries on");
  }

  // The function's error message holds terminal colour codes and a NUL: the dead letter's error
  // attribute must still be one the queue takes.
  @Test
  void aDeadLetterWhoseErrorHoldsControlCharactersArrivesOnceWithItsError() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), functions());
    Address target = address(KEEP, "dl-error");
    sendEscaped(target, "fail:\u001B[31mred\u001B[0m\u0000end");

    attemptTwiceAndSweep(runtime);

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(1, letters.size(), "one dead letter: " + letters);
    String error = letters.get(0).getValue().get("statekit.error");
    assertTrue(error.contains("red") && error.contains("end"), "the error, readable: " + error);
    assertEquals(
        "fail:\u001B[31mred\u001B[0m\u0000end",
        envelopeValue(letters.get(0).getKey()),
        "the value, exact");
    assertEquals(0, outboxesLeftLater(runtime), "nothing left to send again");
  }

  // A function sends such a value to an address whose id holds such characters, now and delayed
  // under a token that holds them: both arrive once, exact, and nothing is dead-lettered.
  @Test
  void messagesAndDelayedMessagesHoldingCharactersSqsRefusesArriveExact() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(2), functions());
    Address sender = address(RELAY, "relay");
    String keepId = "keep\uFFFE" + run;

    DirectResult sent =
        runtime.invoke(
            DirectInvocation.of(MessageBuilder.forAddress(sender).withValue(keepId).build()));
    drain(runtime);
    elapse(Duration.ofSeconds(2));
    runtime.sweepTimers();
    drain(runtime);
    clock.advance(Duration.ofMinutes(3));
    SweepResult later = runtime.sweepTimers();
    drain(runtime);

    assertTrue(sent.succeeded(), sent::toString);
    assertEquals(List.of(), deadLetters().peekAll(), "nothing dead-lettered");
    assertEquals(0, later.outboxesLeft(), "nothing left to send again");
    assertEquals(0, later.failed(), "no delayed message the queue refuses: " + later);
    for (String id : List.of(keepId, keepId + "-later")) {
      Address keep = Address.of(KEEP, id);
      assertEquals(ODD, text(keep), "the value, exact, at " + id);
      assertEquals(1, count(keep), "once, at " + id);
    }
    assertEquals(List.of(ODD), counted.texts(), "the egress record, once");
  }

  // An egress record holding such characters that its sink refuses on every try reaches the
  // dead-letter queue once, with its value.
  @Test
  void anEgressRecordHoldingCharactersSqsRefusesIsDeadLetteredOnce() {
    EgressSink refusing =
        records -> {
          throw new EgressException(
              EgressException.Reason.INVALID_REQUEST, "the sink refuses it (test)", null);
        };
    FunctionRuntime runtime =
        runtime(
            b ->
                b.maxAttempts(2)
                    .egress(EgressRoutes.builder().route(TestFunctions.COUNTED, refusing).build()),
            functions());
    Address sender = address(RELAY, "egress");

    runtime.invoke(
        DirectInvocation.of(
            MessageBuilder.forAddress(sender).withValue("keep-egress-" + run).build()));
    for (int sweep = 0; sweep < 3; sweep++) {
      clock.advance(Duration.ofMinutes(3));
      runtime.sweepTimers();
    }

    List<Map.Entry<String, Map<String, String>>> letters =
        deadLetters().peekAll().stream()
            .filter(l -> "egress".equals(l.getValue().get("statekit.kind")))
            .toList();
    assertEquals(1, letters.size(), "one egress dead letter: " + deadLetters().peekAll());
    assertEquals(ODD, tree(letters.get(0).getKey()).get("value").asText(), "the value, exact");
    assertEquals(0, outboxesLeftLater(runtime), "nothing left to send again");
  }

  /** Two failing attempts, then the sweeps that deliver what the batches could not. */
  private void attemptTwiceAndSweep(FunctionRuntime runtime) {
    for (int i = 0; i < 2; i++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      waitForVisibility();
    }
    drain(runtime);
    for (int sweep = 0; sweep < 3; sweep++) {
      clock.advance(Duration.ofMinutes(3));
      runtime.sweepTimers();
    }
  }

  /** Sends an envelope whose string value is written with JSON escapes, as a producer must. */
  private void sendEscaped(Address target, String value) {
    StringBuilder escaped = new StringBuilder();
    value.chars().forEach(c -> escaped.append(String.format("\\u%04x", c)));
    String body =
        "{\"target\": \""
            + target
            + "\", \"typename\": \"io.statefun.types/string\", \"value\": \""
            + escaped
            + "\"}";
    queue()
        .bus()
        .send(List.of(new BusMessage(Ingress.groupId(target), UUID.randomUUID().toString(), body)));
  }

  private static JsonNode tree(String body) {
    try {
      return PlainJson.readOne(body);
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: " + body, e);
    }
  }

  private static String envelopeValue(String body) {
    return tree(body).get("value").asText();
  }

  private String text(Address address) {
    var value = store().reload(address).values().get(TestFunctions.DATA.name());
    return value == null ? null : dev.statekit.types.Types.stringType().deserialize(value.bytes());
  }

  private long count(Address address) {
    var value = store().reload(address).values().get(TestFunctions.COUNT.name());
    return value == null ? 0 : dev.statekit.types.Types.longType().deserialize(value.bytes());
  }
}
