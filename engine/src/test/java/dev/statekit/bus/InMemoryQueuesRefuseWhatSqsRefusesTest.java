package dev.statekit.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.StateKitException;
import dev.statekit.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The in-memory queues refuse what SQS's SendMessageBatch refuses (SqsRefusedCharactersIT shows the
 * SQS server doing it): a body or a string attribute holding a character outside {@code #x9 | #xA |
 * #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF}. Each such entry fails on its own, for good
 * (the message itself is wrong); the batch's other entries are sent.
 */
class InMemoryQueuesRefuseWhatSqsRefusesTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));

  private MessageBus queue(String kind) {
    return kind.equals("fifo")
        ? new InMemoryMessageBus(clock, Duration.ofSeconds(30))
        : new InMemoryStandardQueue(clock, Duration.ofSeconds(30));
  }

  private static List<String> stored(MessageBus queue) {
    List<BusMessage> all =
        queue instanceof InMemoryMessageBus fifo
            ? fifo.peekAll()
            : ((InMemoryStandardQueue) queue).peekAll();
    return all.stream().map(BusMessage::body).toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"fifo", "standard"})
  void aBodyOrAttributeWithACharacterSqsRefusesFailsForGoodAndTheRestIsSent(String kind) {
    MessageBus queue = queue(kind);
    List<BusMessage> batch =
        List.of(
            new BusMessage("g", "1", "ok"),
            new BusMessage("g", "2", "bad \uFFFE"),
            new BusMessage("g", "3", "bad \u0001"),
            new BusMessage("g", "4", "ok", Map.of("a", "bad \uFFFF")),
            new BusMessage("g", "5", "bad \uD800 unpaired"),
            new BusMessage("g", "6", "ok too"));

    BusException refused = assertThrows(BusException.class, () -> queue.send(batch));

    assertEquals(Set.of(1, 2, 3, 4), refused.failedIndices());
    assertEquals(StateKitException.Reason.INVALID_REQUEST, refused.reason());
    assertTrue(refused.getMessage().contains("U+FFFE"), refused.getMessage());
    assertEquals(List.of("ok", "ok too"), stored(queue));
  }

  // SQS counts a message's body and each attribute's name, type ("String") and value, in UTF-8
  // bytes, against the queue's limit (256 KiB by default, the size the queues declare).
  @ParameterizedTest
  @ValueSource(strings = {"fifo", "standard"})
  void aMessageLargerThanTheQueueTakesFailsForGoodAndTheRestIsSent(String kind) {
    MessageBus queue = queue(kind);
    int max = queue.maxMessageBytes();
    String attribute = "x".repeat(100);
    int attributeBytes = "a".length() + "String".length() + attribute.length();
    List<BusMessage> batch =
        List.of(
            new BusMessage("g", "1", "x".repeat(max)),
            new BusMessage("g", "2", "x".repeat(max + 1)),
            new BusMessage("g", "3", "\u00e9".repeat(max / 2)),
            new BusMessage("g", "4", "x".repeat(max - attributeBytes), Map.of("a", attribute)),
            new BusMessage("g", "5", "x".repeat(max - attributeBytes + 1), Map.of("a", attribute)));

    BusException refused = assertThrows(BusException.class, () -> queue.send(batch));

    assertEquals(Set.of(1, 4), refused.failedIndices(), refused.getMessage());
    assertEquals(StateKitException.Reason.INVALID_REQUEST, refused.reason());
    assertTrue(refused.getMessage().contains("262145 bytes"), refused.getMessage());
    assertEquals(3, stored(queue).size());
  }

  @ParameterizedTest
  @ValueSource(strings = {"fifo", "standard"})
  void everyCharacterSqsAllowsIsTaken(String kind) {
    MessageBus queue = queue(kind);
    String allowed = "\t\n\r \u007F\uD7FF\uE000\uFFFD\uD83D\uDE00\uDBFF\uDFFF";

    queue.send(List.of(new BusMessage("g", "1", allowed, Map.of("a", allowed))));

    assertEquals(List.of(allowed), stored(queue));
  }
}
