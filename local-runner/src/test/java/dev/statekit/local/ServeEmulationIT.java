package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.local.testapp.RecordingHandler;
import dev.statekit.testservers.RealServers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** serve's event-source emulation against the real servers, with a recording test function. */
@ExtendWith(RealServers.class)
class ServeEmulationIT {
  private static final String PREFIX = "emu-" + UUID.randomUUID().toString().substring(0, 6);
  private static final StringWriter OUTPUT = new StringWriter();
  private static ServeCommand.Running running;

  @BeforeAll
  static void serve() throws Exception {
    CommandLine command = new CommandLine(new ServeCommand());
    command.setOut(new PrintWriter(OUTPUT, true));
    command.parseArgs(
        "--port",
        "0",
        "--prefix",
        PREFIX,
        "--tick",
        "1",
        "--retry-after",
        "0",
        "--template",
        Path.of("src/test/resources/emulation-template.yaml").toString());
    running = ((ServeCommand) command.getCommand()).start();
  }

  @AfterAll
  static void stop() {
    running.close();
  }

  @Test
  void sqsBatchesKeepFailuresOnTheQueueUntilTheyAreRedrivenToTheDeadLetterQueue(SqsClient sqs)
      throws Exception {
    String work = sqs.getQueueUrl(b -> b.queueName(PREFIX + "-Work")).queueUrl();
    String dead = sqs.getQueueUrl(b -> b.queueName(PREFIX + "-Dead")).queueUrl();
    for (String body : List.of("a", "b", "please fail", "c")) {
      sqs.sendMessage(b -> b.queueUrl(work).messageBody(body));
    }

    await(
        () -> bodies().containsAll(List.of("a", "b", "c")) && count(bodies(), "please fail") >= 2,
        "all delivered, the failing one twice");
    await(
        () -> !sqs.receiveMessage(b -> b.queueUrl(dead).waitTimeSeconds(1)).messages().isEmpty(),
        "the failing message in the dead-letter queue");

    assertEquals(1, count(bodies(), "a"), "a succeeded once and was deleted");
    String attributes =
        sqs.getQueueAttributes(b -> b.queueUrl(work).attributeNames(QueueAttributeName.ALL))
            .attributes()
            .toString();
    assertTrue(attributes.contains("ApproximateNumberOfMessages=0"), attributes);
    JsonNode first =
        RecordingHandler.PAYLOADS.stream()
            .filter(p -> p.at("/Records/0/eventSource").asText().equals("aws:sqs"))
            .findFirst()
            .orElseThrow();
    assertTrue(
        first.at("/Records/0/eventSourceARN").asText().endsWith(PREFIX + "-Work"),
        first.toString());
    assertTrue(first.path("Records").size() <= 5, "batch size 5");
  }

  @Test
  void kinesisShardsAreReadInBatchesAndRetriedFromTheFirstFailedRecord(KinesisClient kinesis)
      throws Exception {
    for (String data : List.of("r1", "r2", "r3-fail", "r4", "r5")) {
      kinesis.putRecord(
          b ->
              b.streamName(PREFIX + "-Stream")
                  .partitionKey("k")
                  .data(SdkBytes.fromUtf8String(data)));
    }

    await(() -> count(kinesisData(), "r5") >= 1, "every record read");

    List<String> data = kinesisData();
    assertEquals(1, count(data, "r1"), "r1 is before the failure: read once " + data);
    assertEquals(2, count(data, "r3-fail"), "read again from the failed record " + data);
    assertEquals(1, count(data, "r2"), data.toString());
    assertEquals(1, count(data, "r5"), data.toString());
    assertEquals(
        "r4", data.get(data.lastIndexOf("r3-fail") + 1), "in order after the retry " + data);
  }

  @Test
  void schedulesFireAndTheFunctionUrlAndInvokeApiAnswer() throws Exception {
    await(
        () ->
            RecordingHandler.PAYLOADS.stream()
                .anyMatch(p -> p.path("detail-type").asText().equals("Scheduled Event")),
        "a tick");

    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> invoked =
        http.send(
            HttpRequest.newBuilder(
                    running.server().url().resolve("2015-03-31/functions/Recorder/invocations"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"Records\":[]}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, invoked.statusCode());
    assertEquals("{\"batchItemFailures\":[]}", invoked.body());
    HttpResponse<String> unknown =
        http.send(
            HttpRequest.newBuilder(
                    running.server().url().resolve("2015-03-31/functions/Nope/invocations"))
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(404, unknown.statusCode());
    http.send(
        HttpRequest.newBuilder(running.server().url().resolve("some/path"))
            .POST(HttpRequest.BodyPublishers.ofString("x"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    JsonNode urlEvent =
        RecordingHandler.PAYLOADS.stream().filter(p -> p.has("rawPath")).findFirst().orElseThrow();
    assertEquals("/some/path", urlEvent.get("rawPath").asText());
    assertEquals("POST", urlEvent.at("/requestContext/http/method").asText());
    assertTrue(OUTPUT.toString().contains("Recorder.Work: polls "), OUTPUT.toString());
  }

  private static List<String> bodies() {
    List<String> bodies = new ArrayList<>();
    for (JsonNode payload : RecordingHandler.PAYLOADS) {
      payload
          .path("Records")
          .forEach(
              r -> {
                if (r.has("body")) {
                  bodies.add(r.get("body").asText());
                }
              });
    }
    return bodies;
  }

  private static List<String> kinesisData() {
    List<String> data = new ArrayList<>();
    for (JsonNode payload : RecordingHandler.PAYLOADS) {
      payload
          .path("Records")
          .forEach(
              r -> {
                if (r.has("kinesis")) {
                  data.add(
                      new String(
                          java.util.Base64.getDecoder().decode(r.at("/kinesis/data").asText())));
                }
              });
    }
    return data;
  }

  private static long count(List<String> values, String value) {
    return values.stream().filter(value::equals).count();
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(
            "Timed out waiting for "
                + what
                + "; payloads: "
                + RecordingHandler.PAYLOADS
                + "\n"
                + OUTPUT);
      }
      Thread.sleep(100);
    }
  }
}
