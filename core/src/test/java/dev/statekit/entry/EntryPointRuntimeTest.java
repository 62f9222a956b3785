package dev.statekit.entry;

import static dev.statekit.entry.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.function.Address;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.TypeName;
import dev.statekit.function.ValueSpec;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.bus.InMemoryMessageBus;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The self-hosted runtime behind the entry point: envelopes, the ingress queue, the sweep. */
class EntryPointRuntimeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeName COUNTER = TypeName.of("test", "counter");
  private static final ValueSpec<Integer> SEEN = ValueSpec.named("seen").withIntType();

  private final InMemoryFunctionStore store = new InMemoryFunctionStore();
  private final InMemoryMessageBus queue =
      new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));
  private final FunctionRuntime runtime =
      FunctionRuntime.builder(
              StatefulFunctions.builder()
                  .withFunction(
                      COUNTER,
                      (context, message) ->
                          context.storage().set(SEEN, context.storage().get(SEEN).orElse(0) + 1),
                      SEEN)
                  .build())
          .store(store)
          .queue(queue)
          .deadLetters(new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30)))
          .build();

  @Test
  void envelopesQueueBatchesAndTheSweepReachTheRuntime() throws Exception {
    EntryPoint entry =
        EntryPoint.builder()
            .runtime(runtime, "https://sqs.eu-west-1.amazonaws.com/123456789012/ingress.fifo")
            .scheduleRule("tick")
            .build();
    String envelope =
        "{\"target\":\"test/counter/a\",\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}";

    assertEquals("applied", JSON.readTree(entry.invoke(utf8(envelope))).get("status").asText());
    String sqs =
        "{\"Records\":[{\"messageId\":\"m1\",\"body\":"
            + JSON.writeValueAsString(envelope)
            + ",\"attributes\":{\"MessageGroupId\":\"test/counter/a\",\"SequenceNumber\":\"7\","
            + "\"ApproximateReceiveCount\":\"1\"},\"eventSource\":\"aws:sqs\","
            + "\"eventSourceARN\":\"arn:aws:sqs:eu-west-1:123456789012:ingress.fifo\"}]}";
    assertEquals("{\"batchItemFailures\":[]}", new String(entry.invoke(utf8(sqs))));
    assertEquals(
        0, JSON.readTree(entry.invoke(Events.scheduled())).at("/tasks/timers/sent").asInt());

    assertEquals(2, store.reload(Address.of(COUNTER, "a")).version());
  }

  @Test
  void aNamedIngressQueueLeavesOtherQueuesUnrouted() {
    EntryPoint entry =
        EntryPoint.builder()
            .runtime(runtime, "https://sqs.eu-west-1.amazonaws.com/123456789012/ingress.fifo")
            .scheduleRule("tick")
            .build();

    var e = assertThrows(NoRouteException.class, () -> entry.invoke(Events.sqs("other", "m1")));
    assertTrue(e.getMessage().contains("/123456789012/ingress.fifo"), e.getMessage());
    assertTrue(entry.accepts(PayloadShape.ENVELOPE) && entry.accepts(PayloadShape.SCHEDULED));
  }
}
