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

  /**
   * docs/local-runner.md: the messages a function names in batchItemFailures, "all of them if it
   * throws", come back after --retry-after SECONDS (the servers' SqsPoller does so for both).
   */
  @Test
  void aBatchWhoseFunctionThrewComesBackAfterRetryAfter() throws Exception {
    InMemoryMessageBus queue = new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));
    queue.send(List.of(new BusMessage("g", "d1", "one")));
    java.util.concurrent.atomic.AtomicInteger calls =
        new java.util.concurrent.atomic.AtomicInteger();
    Invoker throwsOnce =
        event -> {
          if (calls.incrementAndGet() == 1) {
            throw new IllegalStateException("the table is unavailable");
          }
          return "{\"batchItemFailures\":[]}".getBytes(StandardCharsets.UTF_8);
        };
    InMemoryQueuePoller poller =
        new InMemoryQueuePoller(
            "in", queue, throwsOnce, new Activity(new PrintWriter(new StringWriter())), 1);

    poller.pollOnce();
    Thread.sleep(2_000);
    poller.pollOnce();

    assertEquals(2, calls.get(), "the batch came back after --retry-after 1, not the queue's 30 s");
    assertEquals(0, queue.size(), "and was applied");
  }

  /**
   * A batch whose answer names an id outside it stays on the queue whole, and, as the servers'
   * SqsPoller brings it back, comes back after --retry-after (not the in-memory queue's 30 s).
   */
  @Test
  void aBatchWhoseAnswerNamedAnUnknownIdComesBackAfterRetryAfter() throws Exception {
    InMemoryMessageBus queue = new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));
    queue.send(List.of(new BusMessage("g", "d1", "one")));
    java.util.concurrent.atomic.AtomicInteger calls =
        new java.util.concurrent.atomic.AtomicInteger();
    Invoker answersUnknownIdOnce =
        event ->
            (calls.incrementAndGet() == 1
                    ? "{\"batchItemFailures\":[{\"itemIdentifier\":\"not-in-the-batch\"}]}"
                    : "{\"batchItemFailures\":[]}")
                .getBytes(StandardCharsets.UTF_8);
    InMemoryQueuePoller poller =
        new InMemoryQueuePoller(
            "in",
            queue,
            answersUnknownIdOnce,
            new Activity(new PrintWriter(new StringWriter())),
            1);

    poller.pollOnce();
    Thread.sleep(2_000);
    poller.pollOnce();

    assertEquals(2, calls.get(), "the batch came back after --retry-after 1, not the queue's 30 s");
    assertEquals(0, queue.size(), "and was applied");
  }
}
