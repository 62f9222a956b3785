package dev.statekit.entry;

import static dev.statekit.entry.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.runtime.FunctionRuntime;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The self-hosted runtime behind the entry point: envelopes, the ingress queue, the sweep. */
class EntryPointRuntimeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final CounterRuntime counter = new CounterRuntime();
  private final FunctionRuntime runtime = counter.runtime;

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

    assertEquals(2, counter.version("a"));
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

  @Test
  void aRuntimeGivenLazilyIsBuiltByTheFirstPayloadThatNeedsItAndOnlyOnce() throws Exception {
    AtomicInteger built = new AtomicInteger();
    EntryPoint entry =
        EntryPoint.builder()
            .runtime(
                () -> {
                  built.incrementAndGet();
                  return runtime;
                },
                "https://sqs.eu-west-1.amazonaws.com/123456789012/ingress.fifo")
            .scheduleRule("tick")
            .build();
    String envelope =
        "{\"target\":\"test/counter/a\",\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}";

    entry.prime(); // the entry point's own priming reads samples: it builds nothing
    assertEquals(0, built.get());
    assertEquals("applied", JSON.readTree(entry.invoke(utf8(envelope))).get("status").asText());
    assertEquals(1, built.get());
    assertEquals(
        0, JSON.readTree(entry.invoke(Events.scheduled())).at("/tasks/timers/sent").asInt());
    assertEquals(1, built.get());
    assertEquals(1, counter.version("a"));
  }

  @Test
  void aLazyRuntimeThatFailsToBuildFailsThePayloadAndIsBuiltAgainByTheNext() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    EntryPoint entry =
        EntryPoint.builder()
            .runtime(
                () -> {
                  if (calls.incrementAndGet() == 1) {
                    throw new IllegalStateException("the table is not reachable");
                  }
                  return runtime;
                },
                "ingress.fifo")
            .scheduleRule("tick")
            .build();
    String envelope =
        "{\"target\":\"test/counter/a\",\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}";

    var e = assertThrows(IllegalStateException.class, () -> entry.invoke(utf8(envelope)));
    assertTrue(e.getMessage().contains("not reachable"), e.getMessage());
    assertEquals("applied", JSON.readTree(entry.invoke(utf8(envelope))).get("status").asText());
    assertEquals(2, calls.get());
  }
}
