package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.QueueMessage;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Settings are checked when given, with messages that say how to fix them. */
class FunctionRuntimeBuilderTest {
  private final InMemoryMessageBus queue =
      new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));

  @Test
  void theStoreAndTheQueueAreRequired() {
    var noStore =
        assertThrows(
            IllegalStateException.class,
            () -> FunctionRuntime.builder(TestFunctions.registry()).queue(queue).build());
    var noQueue =
        assertThrows(
            IllegalStateException.class,
            () ->
                FunctionRuntime.builder(TestFunctions.registry())
                    .store(new InMemoryFunctionStore())
                    .build());

    assertTrue(noStore.getMessage().contains("store("), noStore.getMessage());
    assertTrue(noQueue.getMessage().contains("queue("), noQueue.getMessage());
  }

  @Test
  void settingsOutOfRangeAreRefused() {
    FunctionRuntime.Builder builder = FunctionRuntime.builder(TestFunctions.registry());

    var attempts = assertThrows(IllegalArgumentException.class, () -> builder.maxAttempts(0));
    var delay =
        assertThrows(IllegalArgumentException.class, () -> builder.maxDelay(Duration.ofDays(30)));
    var retention =
        assertThrows(
            IllegalArgumentException.class, () -> builder.dedupRetention(Duration.ofSeconds(5)));
    var keys =
        assertThrows(
            IllegalArgumentException.class, () -> builder.idempotency(Duration.ofHours(1), 0));

    assertTrue(attempts.getMessage().contains("maxAttempts"), attempts.getMessage());
    assertTrue(delay.getMessage().contains("365 days"), delay.getMessage());
    assertTrue(retention.getMessage().contains("dedupRetention"), retention.getMessage());
    assertTrue(keys.getMessage().contains("capacity"), keys.getMessage());
  }

  @Test
  void ambiguousFunctionTypesAreRefusedAtBuild() {
    StatefulFunctions ambiguous =
        StatefulFunctions.builder()
            .withFunction(TypeName.of("shop", "orders"), (c, m) -> {})
            .withFunction(TypeName.of("shop/orders", "lines"), (c, m) -> {})
            .build();

    assertThrows(
        IllegalArgumentException.class,
        () ->
            FunctionRuntime.builder(ambiguous)
                .store(new InMemoryFunctionStore())
                .queue(queue)
                .build());
  }

  @Test
  void queueBatchesNeedADeadLetterQueue() {
    FunctionRuntime runtime =
        FunctionRuntime.builder(TestFunctions.registry())
            .store(new InMemoryFunctionStore())
            .queue(queue)
            .build();

    var refused =
        assertThrows(
            IllegalStateException.class,
            () -> runtime.processQueueBatch(List.of(new QueueMessage("m", "{}", "g", "1", 1))));

    assertTrue(refused.getMessage().contains("deadLetters("), refused.getMessage());
  }
}
