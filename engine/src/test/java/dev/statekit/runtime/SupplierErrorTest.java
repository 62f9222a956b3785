package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.BusMessage;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunction;
import dev.statekit.function.StatefulFunctionSpec;
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
    send(queue, MessageBuilder.forAddress(broken).withValue("x").build());
    send(queue, MessageBuilder.forAddress(healthy).withValue(7L).build());

    List<String> invocationErrors = new ArrayList<>();
    for (int receive = 0; receive < 12; receive++) {
      List<QueueSource.Received> batch = queue.receive(10);
      if (batch.isEmpty()) {
        waitForVisibility();
        continue;
      }
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
    assertEquals(List.of(), invocationErrors, "no invocation failed whole");
    assertEquals(
        1, letters.size(), "the broken function's message is dead-lettered once: " + report);
    assertTrue(
        String.valueOf(letters.get(0).getValue().get("statekit.error")).contains("Error"),
        "with its error: " + report);
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
