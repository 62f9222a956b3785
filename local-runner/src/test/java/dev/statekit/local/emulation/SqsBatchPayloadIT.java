package dev.statekit.local.emulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.testservers.RealServers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Lambda's SQS event source mapping invokes once a batch holds {@code BatchSize} messages, its
 * batching window ends, or its payload reaches Lambda's 6 MB. The servers' poller filled a batch by
 * count only: 40 messages of 200 KB (BatchSize 40) went to the function as one 8 MB event, which
 * the StateKit entry point refuses over its 8 MiB and Lambda never sends, so the batch failed on
 * every receive locally and went to the dead-letter queue where Lambda applies it.
 */
@ExtendWith(RealServers.class)
class SqsBatchPayloadIT {
  private static final int LAMBDA_PAYLOAD = 6 * 1024 * 1024;

  @Test
  void aBatchOfLargeMessagesIsCutWithinLambdasPayloadLimit(SqsClient sqs) {
    String name = "payload-" + UUID.randomUUID().toString().substring(0, 8);
    String url =
        sqs.createQueue(
                b ->
                    b.queueName(name)
                        .attributesWithStrings(java.util.Map.of("VisibilityTimeout", "60")))
            .queueUrl();
    List<String> sent = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String body = String.format("%02d", i) + "x".repeat(200 * 1024);
      sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
      sent.add(body.substring(0, 2));
    }
    List<Integer> sizes = new ArrayList<>();
    List<String> delivered = new ArrayList<>();
    Invoker function =
        event -> {
          sizes.add(event.length);
          String text = new String(event, StandardCharsets.UTF_8);
          for (int at = text.indexOf("\"body\":\"");
              at >= 0;
              at = text.indexOf("\"body\":\"", at + 1)) {
            int start = at + "\"body\":\"".length();
            delivered.add(text.substring(start, start + 2));
          }
          return "{\"batchItemFailures\":[]}".getBytes(StandardCharsets.UTF_8);
        };
    SqsPoller poller =
        new SqsPoller(
            sqs,
            new SqsPoller.Settings(
                "Ingress",
                url,
                "arn:aws:sqs:us-east-1:000000000000:" + name,
                "us-east-1",
                40,
                2,
                true,
                -1),
            function,
            new Activity(new PrintWriter(new StringWriter())));

    for (int round = 0; round < 20 && delivered.size() < sent.size(); round++) {
      List<software.amazon.awssdk.services.sqs.model.Message> batch = poller.receive();
      if (!batch.isEmpty()) {
        poller.process(batch);
      }
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
    String url =
        sqs.createQueue(
                b ->
                    b.queueName(name)
                        .attributesWithStrings(java.util.Map.of("VisibilityTimeout", "1")))
            .queueUrl();
    for (int i = 0; i < 40; i++) {
      String body = String.format("%02d", i) + "x".repeat(200 * 1024);
      sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
    }
    List<List<String>> events = new ArrayList<>();
    Invoker function =
        event -> {
          List<String> ids = new ArrayList<>();
          String text = new String(event, StandardCharsets.UTF_8);
          for (int at = text.indexOf("\"messageId\":\"");
              at >= 0;
              at = text.indexOf("\"messageId\":\"", at + 1)) {
            int start = at + "\"messageId\":\"".length();
            ids.add(text.substring(start, text.indexOf('"', start)));
          }
          events.add(ids);
          if (events.size() == 1) {
            try {
              Thread.sleep(2_000); // past the visibility timeout of the messages carried
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          return "{\"batchItemFailures\":[]}".getBytes(StandardCharsets.UTF_8);
        };
    SqsPoller poller =
        new SqsPoller(
            sqs,
            new SqsPoller.Settings(
                "Ingress",
                url,
                "arn:aws:sqs:us-east-1:000000000000:" + name,
                "us-east-1",
                40,
                2,
                true,
                -1),
            function,
            new Activity(new PrintWriter(new StringWriter())));

    for (int round = 0; round < 2; round++) {
      List<software.amazon.awssdk.services.sqs.model.Message> batch = poller.receive();
      if (!batch.isEmpty()) {
        poller.process(batch);
      }
    }

    assertEquals(2, events.size(), "premise: a batch cut by its payload, then the next");
    List<String> second = events.get(1);
    assertEquals(
        new TreeSet<>(second).size(), second.size(), "each message once in the event: " + second);
  }
}
