package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.InMemoryStandardQueue;
import dev.statekit.bus.QueueMessage;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The wake-up queue's batches reach the runtime as the ingress queue's do (an application's AWS
 * wiring routes both to {@code queueConsumer()}). A standard queue delivers at least once and gives
 * no message group nor sequence number, so an envelope that is not a wake-up but arrives on it (a
 * producer given the wrong URL) has nothing to be recognised by when SQS delivers it again.
 */
class StrayOnWakeUpQueueTest {
  private static final ValueSpec<Integer> COUNT = ValueSpec.named("count").withIntType();

  @Test
  void anEnvelopeWithoutIdOnTheStandardWakeUpQueueIsDeadLetteredWithWhyNotAppliedTwice() {
    AtomicReference<Integer> count = new AtomicReference<>(0);
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(
                TypeName.of("t", "counter"),
                (context, message) -> {
                  int next = context.storage().get(COUNT).orElse(0) + 1;
                  context.storage().set(COUNT, next);
                  count.set(next);
                },
                COUNT)
            .build();
    Clock clock = Clock.systemUTC();
    InMemoryMessageBus deadLetters = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    FunctionRuntime runtime =
        FunctionRuntime.builder(functions)
            .store(new InMemoryFunctionStore())
            .queue(new InMemoryMessageBus(clock, Duration.ofSeconds(30)))
            .deadLetters(deadLetters)
            .wakeUps(new InMemoryStandardQueue(clock, Duration.ofSeconds(30)))
            .egress(EgressRoutes.none())
            .build();
    String body =
        "{\"target\":\"t/counter/a\",\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}";

    // The same SQS message (same message id) delivered twice, as a standard queue may.
    runtime.processQueueBatch(List.of(new QueueMessage("m-1", body, null, null, 1)));
    runtime.processQueueBatch(List.of(new QueueMessage("m-1", body, null, null, 2)));
    assertEquals(0, count.get(), "refused, not applied (twice)");
    // With an id, a repeat is recognised: applied once.
    String withId = body.replace("}", ",\"id\":\"k-1\"}").replace("counter/a", "counter/b");
    runtime.processQueueBatch(List.of(new QueueMessage("m-2", withId, null, null, 1)));
    runtime.processQueueBatch(List.of(new QueueMessage("m-2", withId, null, null, 2)));
    assertEquals(1, count.get(), "the envelope with an id applied once");

    assertTrue(deadLetters.size() >= 1, "kept in the dead-letter queue");
    var dead = deadLetters.peekAll().get(0);
    assertTrue(dead.attributes().toString().contains("ingress FIFO queue"), dead.toString());
    assertTrue(dead.body().contains("t/counter/a"), "the envelope itself is kept: " + dead);
  }
}
