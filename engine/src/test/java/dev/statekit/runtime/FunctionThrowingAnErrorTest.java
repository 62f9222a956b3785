package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.BusMessage;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A message whose function throws an {@link Error} (a StackOverflowError from recursion on a deep
 * input) rather than an exception: it failed the whole queue batch, so after the last attempt the
 * runtime dead-lettered it and a healthy message to another address beside it, never applied, and
 * neither dead letter said what failed. Now it is dead-lettered once with its error and the batch's
 * other messages are applied.
 */
class FunctionThrowingAnErrorTest extends RuntimeFixture {
  static final TypeName PARSER = TypeName.of("errors", "parser");

  /** Parses nested brackets recursively; a deep enough input overflows the stack. */
  static void parser(Context context, Message message) {
    String text = message.asUtf8String();
    depth(text, 0);
    context
        .storage()
        .set(TestFunctions.COUNT, context.storage().get(TestFunctions.COUNT).orElse(0L) + 1);
  }

  private static int depth(String text, int at) {
    if (at >= text.length() || text.charAt(at) != '[') {
      return 0;
    }
    return 1 + depth(text, at + 1);
  }

  static StatefulFunctions functions() {
    return StatefulFunctions.builder()
        .withFunction(PARSER, FunctionThrowingAnErrorTest::parser, TestFunctions.COUNT)
        .withFunction(
            TestFunctions.TOTAL, TestFunctions::total, TestFunctions.COUNT, TestFunctions.SUM)
        .build();
  }

  @Test
  void aFunctionThrowingAnErrorIsDeadLetteredWithItsErrorAndTheBatchCarriesOn() {
    // As template.yaml deploys it: redrive after 10 receives, the runtime's maxAttempts 5.
    QueueSource queue = servers().newQueue("redriven", deadLetters(), 10);
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5).queue(queue.bus()), functions());
    Address poison = address(PARSER, "poison");
    Address healthy = address(TestFunctions.TOTAL, "healthy");
    // 200,000 nested brackets: a StackOverflowError in the function, on every attempt.
    send(queue, MessageBuilder.forAddress(poison).withValue("[".repeat(200_000)).build());
    send(queue, MessageBuilder.forAddress(healthy).withValue(7L).build());

    List<String> invocationErrors = new ArrayList<>();
    for (int receive = 0; receive < 12; receive++) {
      List<QueueSource.Received> batch = queue.receive(10);
      if (batch.isEmpty()) {
        waitForVisibility();
        continue;
      }
      // What Lambda's event source mapping does: an invocation that throws fails its whole batch;
      // otherwise what the answer does not name is deleted.
      Set<String> failed = new HashSet<>();
      try {
        QueueBatchResult result =
            runtime.processQueueBatch(batch.stream().map(QueueSource.Received::message).toList());
        failed.addAll(result.failedMessageIds());
      } catch (Throwable e) {
        invocationErrors.add(e.getClass().getSimpleName());
        batch.forEach(r -> failed.add(r.message().messageId()));
      }
      for (QueueSource.Received r : batch) {
        if (!failed.contains(r.message().messageId())) {
          queue.delete(r.receiptHandle());
        }
      }
      waitForVisibility();
    }

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    List<String> report = new ArrayList<>();
    letters.forEach(
        l ->
            report.add(
                l.getValue().get("statekit.target") + ": " + l.getValue().get("statekit.error")));
    assertEquals(
        7L,
        value(healthy, TestFunctions.SUM),
        "the other address's message is applied (invocations that threw: "
            + invocationErrors
            + "; dead letters: "
            + report
            + ")");
    assertEquals(1, letters.size(), "the poison message is dead-lettered once: " + report);
    assertTrue(
        String.valueOf(letters.get(0).getValue().get("statekit.error"))
            .contains("StackOverflowError"),
        "with its error, not moved by the queue's redrive: " + report);
    assertEquals(List.of(), invocationErrors, "no invocation failed whole");
  }

  private static void send(QueueSource queue, Message message) {
    queue
        .bus()
        .send(
            List.of(
                new BusMessage(
                    Ingress.groupId(message.targetAddress()),
                    UUID.randomUUID().toString(),
                    Ingress.envelope(message))));
  }
}
