package dev.statekit.local.emulation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.bus.BusMessage;
import dev.statekit.bus.InMemoryMessageBus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * serve --in-memory's queue poller reads a batch's answer as the servers' SqsPoller and Lambda do:
 * a batchItemFailures entry naming no message of the batch fails the whole batch, and every message
 * stays on the queue. Before, the in-memory poller looked each message up in the list, found none
 * failed and deleted them all: the batch was lost in memory where servers and Lambda retry it.
 */
class InMemoryBatchAnswerTest {

  @Test
  void anAnswerNamingAnIdOutsideTheBatchKeepsTheWholeBatch() {
    InMemoryMessageBus queue = new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));
    queue.send(List.of(new BusMessage("g", "d1", "one"), new BusMessage("g", "d2", "two")));
    Invoker answersUnknownId =
        event ->
            "{\"batchItemFailures\":[{\"itemIdentifier\":\"not-a-message-of-this-batch\"}]}"
                .getBytes(StandardCharsets.UTF_8);
    InMemoryQueuePoller poller =
        new InMemoryQueuePoller(
            "in", queue, answersUnknownId, new Activity(new PrintWriter(new StringWriter())), -1);

    poller.pollOnce();

    assertEquals(
        2,
        queue.size(),
        "both messages stay on the queue, as Lambda keeps a batch whose answer it cannot match");
  }
}
