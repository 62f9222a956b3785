package dev.statekit.local.emulation;

import static dev.statekit.local.emulation.EmulatedEvents.ALL_DONE;
import static dev.statekit.local.emulation.EmulatedEvents.LAMBDA_PAYLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.testservers.RealServers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Lambda's SQS event source mapping invokes once a batch holds {@code BatchSize} messages, its
 * batching window ends, or its payload reaches Lambda's 6 MB. The servers' poller filled a batch by
 * count only: 40 messages of 200 KB (BatchSize 40) went to the function as one 8 MB event, which
 * the StateKit entry point refuses over its 8 MiB and Lambda never sends, so the batch failed on
 * every receive locally and went to the dead-letter queue where Lambda applies it.
 */
@ExtendWith(RealServers.class)
class SqsBatchPayloadIT {
  @Test
  void aBatchOfLargeMessagesIsCutWithinLambdasPayloadLimit(SqsClient sqs) {
    String name = "payload-" + UUID.randomUUID().toString().substring(0, 8);
    List<String> sent = fortyLargeMessages(sqs, name, 60);
    List<Integer> sizes = new ArrayList<>();
    List<String> delivered = new ArrayList<>();
    SqsPoller poller =
        EmulatedEvents.sqsPoller(
            sqs,
            url(sqs, name),
            name,
            40,
            2,
            event -> {
              sizes.add(event.length);
              EmulatedEvents.values(event, "body").forEach(b -> delivered.add(b.substring(0, 2)));
              return ALL_DONE;
            });

    for (int round = 0; round < 20 && delivered.size() < sent.size(); round++) {
      pollOnce(poller);
    }

    assertEquals(new TreeSet<>(sent), new TreeSet<>(delivered), "every message handed over");
    assertEquals(sent.size(), delivered.size(), "each once: " + delivered);
    assertTrue(
        sizes.stream().allMatch(size -> size <= LAMBDA_PAYLOAD),
        "each event within Lambda's 6 MB, as the event source mapping cuts batches; sizes "
            + sizes);
  }

  /**
   * A message carried to the next batch stays in flight only for the queue's visibility timeout: a
   * first invocation that outlasts it lets SQS hand the carried message out again, and the next
   * batch must hold it once, under its newest receipt handle (Lambda never sends one message twice
   * in one event).
   */
  @Test
  void aCarriedMessageReceivedAgainIsInItsBatchOnce(SqsClient sqs) throws Exception {
    String name = "carried-" + UUID.randomUUID().toString().substring(0, 8);
    fortyLargeMessages(sqs, name, 1);
    List<List<String>> events = new ArrayList<>();
    SqsPoller poller =
        EmulatedEvents.sqsPoller(
            sqs,
            url(sqs, name),
            name,
            40,
            2,
            event -> {
              events.add(EmulatedEvents.values(event, "messageId"));
              if (events.size() == 1) {
                try {
                  Thread.sleep(2_000); // past the visibility timeout of the messages carried
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
              return ALL_DONE;
            });

    pollOnce(poller);
    pollOnce(poller);

    assertEquals(2, events.size(), "premise: a batch cut by its payload, then the next");
    List<String> second = events.get(1);
    assertEquals(
        new TreeSet<>(second).size(), second.size(), "each message once in the event: " + second);
  }

  /**
   * Creates the queue {@code name} with this visibility timeout and sends it 40 messages of 200 KB.
   *
   * @return each message's first two characters, its number
   */
  private static List<String> fortyLargeMessages(SqsClient sqs, String name, int visibility) {
    sqs.createQueue(
        b ->
            b.queueName(name)
                .attributesWithStrings(Map.of("VisibilityTimeout", Integer.toString(visibility))));
    String url = url(sqs, name);
    List<String> sent = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String number = String.format("%02d", i);
      sqs.sendMessage(b -> b.queueUrl(url).messageBody(number + "x".repeat(200 * 1024)));
      sent.add(number);
    }
    return sent;
  }

  private static String url(SqsClient sqs, String name) {
    return sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
  }

  private static void pollOnce(SqsPoller poller) {
    List<Message> batch = poller.receive();
    if (!batch.isEmpty()) {
      poller.process(batch);
    }
  }
}
