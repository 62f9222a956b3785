package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunction;
import dev.statekit.function.StatefulFunctionSpec;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A function made per batch by a supplier whose class cannot load (its static initializer fails:
 * ExceptionInInitializerError, then NoClassDefFoundError) fails its messages, as a function's own
 * Error does, not the whole queue batch on every receive: the healthy message to another address
 * beside it was never applied, and after the queue's last receive both were moved by the redrive
 * without a word of why.
 */
class SupplierErrorTest extends RuntimeFixture {
  static final TypeName BROKEN = TypeName.of("errors", "broken");

  /** A function class whose static initializer fails (a setting it reads at class load). */
  static final class Broken implements StatefulFunction {
    static final String SETTING = load();

    private static String load() {
      throw new IllegalStateException("no setting");
    }

    @Override
    public void apply(Context context, Message message) {}
  }

  static StatefulFunctions functions() {
    return StatefulFunctions.builder()
        .withFunction(
            StatefulFunctionSpec.builder(BROKEN)
                .withValueSpecs(TestFunctions.COUNT)
                .withSupplier(Broken::new)
                .build())
        .withFunction(
            TestFunctions.TOTAL, TestFunctions::total, TestFunctions.COUNT, TestFunctions.SUM)
        .build();
  }

  @Test
  void aSupplierThrowingALinkageErrorFailsItsMessagesNotTheBatch() {
    QueueSource queue = servers().newQueue("redriven", deadLetters(), 10);
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5).queue(queue.bus()), functions());
    Address broken = address(BROKEN, "b");
    Address healthy = address(TestFunctions.TOTAL, "healthy");
    enqueue(queue, MessageBuilder.forAddress(broken).withValue("x").build());
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
    assertEquals(List.of(), invocationErrors, "no invocation failed whole");
    assertEquals(
        1, letters.size(), "the broken function's message is dead-lettered once: " + report);
    assertTrue(
        String.valueOf(letters.get(0).getValue().get("statekit.error")).contains("Error"),
        "with its error: " + report);
  }
}
