package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.handlers.ApplicationHandler;
import dev.statekit.handlers.Variables;
import dev.statekit.testservers.LocalServers;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestQueue;
import dev.statekit.testservers.TestStreams;
import dev.statekit.testservers.TestTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The application as Lambda runs it, on real servers (Dynoxide, ElasticMQ, kinesalite, which the
 * test servers install and start): the handler {@code template.yaml} names, wired from the
 * variables the template sets.
 */
@ExtendWith(RealServers.class)
class AppIT {
  private static final String RULE = "app-tick";

  @Test
  void visitsAreCountedInTheTableAndPageViewsCountedByThePipeline(
      TestTable table, TestQueue ingress, SqsClient sqs, KinesisClient kinesis) throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String greetings = fifo(sqs, "greetings-" + run);
    String counts = fifo(sqs, "counts-" + run);
    String stream = "views-" + run;
    TestStreams.create(kinesis, stream, 1);
    ApplicationHandler handler =
        new ApplicationHandler(
            Variables.of(
                Map.ofEntries(
                    Map.entry("STATEKIT_APPLICATION", App.class.getName()),
                    Map.entry("STATEKIT_TABLE", table.name()),
                    Map.entry("STATEKIT_QUEUE_URL", ingress.url()),
                    Map.entry("STATEKIT_DEAD_LETTER_QUEUE_URL", fifo(sqs, "dead-" + run)),
                    Map.entry(App.GREETINGS_QUEUE_URL, greetings),
                    Map.entry(App.PAGE_COUNTS_QUEUE_URL, counts),
                    Map.entry(App.VIEWS_STREAM, stream),
                    Map.entry("STATEKIT_SCHEDULE_RULE", RULE),
                    Map.entry("STATEKIT_BATCH_TIMEOUT_SECONDS", "1"),
                    Map.entry("AWS_REGION", "us-east-1"),
                    Map.entry("STATEKIT_DYNAMODB_ENDPOINT", LocalServers.dynamoDb().toString()),
                    Map.entry("STATEKIT_SQS_ENDPOINT", LocalServers.sqs().toString()),
                    Map.entry("STATEKIT_KINESIS_ENDPOINT", LocalServers.kinesis().toString()))));

    // Two direct invokes: the second sees the count the first stored in the table.
    invoke(handler, envelope("app/visitor/ada", "/home"));
    String answer = invoke(handler, envelope("app/visitor/ada", "/pricing"));
    assertTrue(answer.contains("\"applied\""), answer);
    assertEquals(
        List.of("Welcome to /home, ada (visit 1)", "Welcome to /pricing, ada (visit 2)"),
        receive(sqs, greetings, 2));

    // Page views as the stream's event source mapping hands them over, then the minute tick.
    long start = 1_767_225_600_000L; // 2026-01-01T00:00Z
    List<String> views = new ArrayList<>();
    views.add("{\"visitor\":\"a\",\"page\":\"/home\",\"time\":" + start + "}");
    views.add("{\"visitor\":\"b\",\"page\":\"/home\",\"time\":" + (start + 1_000) + "}");
    views.add("{\"visitor\":\"c\",\"page\":\"/docs\",\"time\":" + (start + 2_000) + "}");
    views.add("{\"visitor\":\"d\",\"page\":\"/home\",\"time\":" + (start + 180_000) + "}");
    String failures = invoke(handler, kinesisEvent(stream, views));
    assertEquals("{\"batchItemFailures\":[]}", failures.replace(" ", ""));
    List<String> fired = new ArrayList<>();
    long deadline = System.currentTimeMillis() + 30_000;
    while (fired.size() < 2 && System.currentTimeMillis() < deadline) {
      invoke(handler, scheduledEvent());
      fired.addAll(receive(sqs, counts, 0));
      Thread.sleep(500);
    }
    assertEquals(2, fired.size(), "the first minute's counts: " + fired);
    assertTrue(fired.stream().anyMatch(c -> c.contains("\"page\":\"/home\"") && c.contains("\"views\":2")), fired.toString());
    assertTrue(fired.stream().anyMatch(c -> c.contains("\"page\":\"/docs\"") && c.contains("\"views\":1")), fired.toString());
  }

  private static String invoke(ApplicationHandler handler, String payload) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(
        new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)), out, null);
    return out.toString(StandardCharsets.UTF_8);
  }

  private static String envelope(String address, String page) {
    return "{\"target\":\"" + address + "\",\"typename\":\"io.statefun.types/string\",\"value\":\""
        + page + "\"}";
  }

  private static String kinesisEvent(String stream, List<String> records) {
    StringBuilder json = new StringBuilder("{\"Records\":[");
    for (int i = 0; i < records.size(); i++) {
      String data =
          Base64.getEncoder().encodeToString(records.get(i).getBytes(StandardCharsets.UTF_8));
      json.append(i == 0 ? "" : ",")
          .append("{\"kinesis\":{\"partitionKey\":\"p\",\"sequenceNumber\":\"")
          .append(i + 1)
          .append("\",\"data\":\"")
          .append(data)
          .append("\",\"approximateArrivalTimestamp\":0},\"eventSource\":\"aws:kinesis\",")
          .append("\"eventID\":\"shardId-000000000000:")
          .append(i + 1)
          .append("\",\"eventSourceARN\":\"arn:aws:kinesis:us-east-1:000000000000:stream/")
          .append(stream)
          .append("\"}");
    }
    return json.append("]}").toString();
  }

  private static String scheduledEvent() {
    return "{\"id\":\"tick\",\"detail-type\":\"Scheduled Event\",\"source\":\"aws.events\","
        + "\"time\":\"2026-01-01T00:00:00Z\",\"resources\":"
        + "[\"arn:aws:events:us-east-1:000000000000:rule/" + RULE + "\"],\"detail\":{}}";
  }

  private static String fifo(SqsClient sqs, String name) {
    return sqs.createQueue(
            b ->
                b.queueName(name + ".fifo")
                    .attributes(
                        Map.of(
                            QueueAttributeName.FIFO_QUEUE, "true",
                            QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "false")))
        .queueUrl();
  }

  /** Receives (and deletes) what the queue has: at least {@code atLeast} messages, in order. */
  private static List<String> receive(SqsClient sqs, String queue, int atLeast)
      throws InterruptedException {
    List<String> bodies = new ArrayList<>();
    long deadline = System.currentTimeMillis() + 10_000;
    do {
      for (var m : sqs.receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10)).messages()) {
        bodies.add(m.body());
        sqs.deleteMessage(b -> b.queueUrl(queue).receiptHandle(m.receiptHandle()));
      }
      if (bodies.size() < atLeast) {
        Thread.sleep(100);
      }
    } while (bodies.size() < atLeast && System.currentTimeMillis() < deadline);
    return bodies;
  }
}
