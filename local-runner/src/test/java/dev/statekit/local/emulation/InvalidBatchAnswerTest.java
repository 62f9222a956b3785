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
 * With {@code ReportBatchItemFailures}, Lambda's SQS event source mapping takes an answer that is
 * not valid JSON for a failure of the whole batch (the "success and failure conditions" of partial
 * batch responses: an invalid JSON response is a complete failure; only an empty or null response
 * or list is a complete success), so every message stays on the queue. Both local pollers read an
 * answer they cannot parse as "no batchItemFailures" and delete the whole batch: here a truncated
 * answer that names a failed message, and that message is deleted with the others. (The servers'
 * poller: {@link InvalidBatchAnswerIT}.)
 */
class InvalidBatchAnswerTest {
  /** The first part of an answer naming message "m-1" as failed: the function stopped writing. */
  static final byte[] TRUNCATED =
      "{\"batchItemFailures\":[{\"itemIdentifier\":\"m-1\"}".getBytes(StandardCharsets.UTF_8);

  private static Activity quiet() {
    return new Activity(new PrintWriter(new StringWriter()));
  }

  @Test
  void theInMemoryPollerKeepsABatchWhoseAnswerIsNotJson() {
    InMemoryMessageBus queue = new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));
    queue.send(List.of(new BusMessage("g", "d1", "one"), new BusMessage("g", "d2", "two")));
    InMemoryQueuePoller poller =
        new InMemoryQueuePoller("in", queue, event -> TRUNCATED, quiet(), -1);

    poller.pollOnce();

    assertEquals(
        2,
        queue.size(),
        "an answer that is not JSON fails the whole batch on Lambda: both messages stay");
  }
}
