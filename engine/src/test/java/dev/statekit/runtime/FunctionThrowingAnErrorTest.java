package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.util.List;
import java.util.Map;
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
    enqueue(queue, MessageBuilder.forAddress(poison).withValue("[".repeat(200_000)).build());
    enqueue(queue, MessageBuilder.forAddress(healthy).withValue(7L).build());

    // What Lambda's event source mapping does: an invocation that throws fails its whole batch;
    // otherwise what the answer does not name is deleted.
    List<String> invocationErrors =
        LambdaLikeWorker.receive(queue, runtime, 12, this::waitForVisibility);

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    List<String> report = deadLetterReport();
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
}
