package dev.statekit.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.aws.sqs.SqsMessageBus;
import dev.statekit.bus.BusException;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.MessageBus;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestQueue;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The same send on the in-memory FIFO queue and on SqsMessageBus (ElasticMQ) ends the same way:
 * these messages SQS refuses by its documented rules, and the in-memory queue took them (it refused
 * only characters and size), so a sender's mistake passed every in-memory test.
 */
@ExtendWith(RealServers.class)
class SqsRefusedShapesIT {

  /** What a send did: "sent" or the BusException's reason. */
  private static String outcome(MessageBus bus, BusMessage message) {
    try {
      bus.send(List.of(message));
      return "sent";
    } catch (BusException e) {
      return "refused " + e.reason();
    }
  }

  private static void sameOnBoth(SqsClient sqs, TestQueue queue, BusMessage message) {
    MessageBus real = new SqsMessageBus(sqs, queue.url());
    MessageBus memory = new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));
    String onSqs = outcome(real, message);
    String inMemory = outcome(memory, message);
    assertEquals(onSqs, inMemory, "in memory vs SQS (ElasticMQ said " + onSqs + ")");
  }

  // SQS: "Message (user) attribute '...' must contain a non-empty value of type 'String'".
  @Test
  void aStringAttributeWithAnEmptyValue(SqsClient sqs, TestQueue queue) {
    sameOnBoth(
        sqs,
        queue,
        new BusMessage("g", UUID.randomUUID().toString(), "{}", Map.of("statekit.error", "")));
  }

  // SQS: MessageGroupId is at most 128 characters.
  @Test
  void aGroupIdOver128Characters(SqsClient sqs, TestQueue queue) {
    sameOnBoth(sqs, queue, new BusMessage("g".repeat(129), UUID.randomUUID().toString(), "{}"));
  }

  // SQS: MessageDeduplicationId is at most 128 characters.
  @Test
  void aDeduplicationIdOver128Characters(SqsClient sqs, TestQueue queue) {
    sameOnBoth(sqs, queue, new BusMessage("g", "d".repeat(129), "{}"));
  }

  // SQS: the message body has at least one character.
  @Test
  void anEmptyBody(SqsClient sqs, TestQueue queue) {
    sameOnBoth(sqs, queue, new BusMessage("g", UUID.randomUUID().toString(), ""));
  }

  // SQS: at most 10 message attributes.
  @Test
  void elevenAttributes(SqsClient sqs, TestQueue queue) {
    Map<String, String> attributes = new java.util.HashMap<>();
    for (int i = 0; i < 11; i++) {
      attributes.put("a" + i, "v");
    }
    sameOnBoth(sqs, queue, new BusMessage("g", UUID.randomUUID().toString(), "{}", attributes));
  }
}
