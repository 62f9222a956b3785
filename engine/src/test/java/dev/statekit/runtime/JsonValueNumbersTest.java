package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.QueueMessage;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A JSON value's number beyond a double's range (1e400) stays a number: read as a double it became
 * Infinity, which the generator writes as the string {@code "Infinity"}, so the function (or a
 * redriven dead letter) got a string where the sender put a number.
 */
class JsonValueNumbersTest {
  private static final String VALUE = "{\"big\":1e400,\"small\":-1E+400,\"plain\":1.5,\"n\":7}";

  private final List<String> applied = new ArrayList<>();
  private final Clock clock = Clock.systemUTC();
  private final InMemoryMessageBus deadLetters =
      new InMemoryMessageBus(clock, Duration.ofSeconds(30));
  private final FunctionRuntime runtime =
      FunctionRuntime.builder(
              StatefulFunctions.builder()
                  .withFunction(
                      TypeName.of("t", "rec"),
                      (context, message) ->
                          applied.add(new String(message.rawValue(), StandardCharsets.UTF_8)))
                  .build())
          .store(new InMemoryFunctionStore())
          .queue(new InMemoryMessageBus(clock, Duration.ofSeconds(30)))
          .deadLetters(deadLetters)
          .build();

  @Test
  void aDirectInvokeDeliversANumberBeyondADoubleAsANumber() {
    runtime.invokeJson(
        ("{\"target\":\"t/rec/a\",\"typename\":\"t/json\",\"value\":" + VALUE + "}")
            .getBytes(StandardCharsets.UTF_8));

    assertEquals(
        List.of("{\"big\":1E+400,\"small\":-1E+400,\"plain\":1.5,\"n\":7}"),
        applied,
        "the numbers as numbers, those a double holds written as before");
  }

  @Test
  void aDeadLetteredEnvelopeKeepsANumberBeyondADouble() {
    String body = "{\"target\":\"t/nobody/a\",\"typename\":\"t/json\",\"value\":" + VALUE + "}";
    runtime.processQueueBatch(
        List.of(new QueueMessage("m-1", body, "t/nobody/a", "18889000000000000001", 1)));

    assertEquals(1, deadLetters.size());
    String dead = deadLetters.peekAll().get(0).body();
    assertFalse(dead.contains("Infinity"), dead);
    assertTrue(dead.contains("\"big\":1E+400"), dead);
  }
}
