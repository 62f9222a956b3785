package dev.statekit.entry;

import static dev.statekit.entry.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.runtime.FunctionRuntime;
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
            .envelopes(runtime.envelopeConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask())
            .queue(
                "https://sqs.eu-west-1.amazonaws.com/123456789012/ingress.fifo",
                runtime.queueConsumer())
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
            .envelopes(runtime.envelopeConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask())
            .queue(
                "https://sqs.eu-west-1.amazonaws.com/123456789012/ingress.fifo",
                runtime.queueConsumer())
            .scheduleRule("tick")
            .build();

    var e = assertThrows(NoRouteException.class, () -> entry.invoke(Events.sqs("other", "m1")));
    assertTrue(e.getMessage().contains("/123456789012/ingress.fifo"), e.getMessage());
    assertTrue(entry.accepts(PayloadShape.ENVELOPE) && entry.accepts(PayloadShape.SCHEDULED));
  }

  /** The ingress queue of {@code counter}'s functions, named as SQS names it. */
  private static dev.statekit.bus.MessageBus named(String name) {
    dev.statekit.bus.InMemoryMessageBus bus =
        new dev.statekit.bus.InMemoryMessageBus(
            java.time.Clock.systemUTC(), java.time.Duration.ofSeconds(30));
    return new dev.statekit.bus.MessageBus() {
      @Override
      public void send(java.util.List<dev.statekit.bus.BusMessage> messages) {
        bus.send(messages);
      }

      @Override
      public int maxMessageBytes() {
        return bus.maxMessageBytes();
      }

      @Override
      public java.util.Optional<String> queueName() {
        return java.util.Optional.of(name);
      }
    };
  }

  private static String fifoRecord(String id, String queue, String sequence) throws Exception {
    String envelope =
        "{\"target\":\"test/counter/q\",\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}";
    return "{\"messageId\":\""
        + id
        + "\",\"body\":"
        + JSON.writeValueAsString(envelope)
        + ",\"attributes\":{\"MessageGroupId\":\"test/counter/q\",\"SequenceNumber\":\""
        + sequence
        + "\",\"ApproximateReceiveCount\":\"1\"},\"eventSource\":\"aws:sqs\","
        + "\"eventSourceARN\":\"arn:aws:sqs:eu-west-1:123456789012:"
        + queue
        + "\"}";
  }

  /**
   * A FIFO message is remembered as applied by its group's sequence number, which another FIFO
   * queue counts on its own: its messages are refused (they come back, then go to its dead-letter
   * queue), not dropped as repeats of the ingress queue's nor applied twice. Before, a message of a
   * second queue whose sequence number was behind the ingress queue's was dropped, unapplied.
   */
  @Test
  void anotherFifoQueuesMessagesAreRefusedNotTakenForRepeats() throws Exception {
    FunctionRuntime named =
        FunctionRuntime.builder(
                dev.statekit.function.StatefulFunctions.builder()
                    .withFunction(
                        CounterRuntime.COUNTER,
                        (context, message) ->
                            context
                                .storage()
                                .set(
                                    CounterRuntime.SEEN,
                                    context.storage().get(CounterRuntime.SEEN).orElse(0) + 1),
                        CounterRuntime.SEEN)
                    .build())
            .store(counter.store)
            .queue(named("ingress.fifo"))
            .deadLetters(named("dead.fifo"))
            .build();
    EntryPoint entry = EntryPoint.builder().anyQueue(named.queueConsumer()).build();

    String event =
        "{\"Records\":["
            + fifoRecord("m1", "ingress.fifo", "900")
            + ","
            + fifoRecord("o1", "other.fifo", "100")
            + "]}";

    assertEquals(
        "{\"batchItemFailures\":[{\"itemIdentifier\":\"o1\"}]}",
        new String(entry.invoke(utf8(event))));
    assertEquals(1, counter.seen("q"), "the ingress queue's message applied, the other's not");
  }
}
