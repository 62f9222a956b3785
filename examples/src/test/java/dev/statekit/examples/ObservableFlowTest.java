package dev.statekit.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.application.InMemoryApplication;
import dev.statekit.bus.BusMessage;
import dev.statekit.entry.InvocationError;
import dev.statekit.examples.fraud.Transaction;
import dev.statekit.examples.greeter.Greeter;
import dev.statekit.handlers.StateKitHandler;
import dev.statekit.telemetry.EmfMetricsSink;
import dev.statekit.telemetry.EmfSpecification;
import dev.statekit.telemetry.LogFormat;
import dev.statekit.telemetry.LogLevel;
import dev.statekit.telemetry.LogOutput;
import dev.statekit.testing.ManualClock;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The examples as Lambda runs them, with Lambda's JSON log format on: every line the run writes is
 * one JSON object (log records and EMF documents alike) with the request id, the level and the
 * subject; every EMF document meets the format's specification; a trace id given at ingress is on
 * the egress records and the log lines of what it caused.
 */
class ObservableFlowTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00Z
  private static final String TRACE = "1-6790a1b2-0123456789abcdef01234567";

  private final ManualClock clock = new ManualClock(T0 + 2 * 60 * 60_000);
  private final InMemoryApplication app =
      ExampleApp.inMemory(Duration.ofMinutes(15), Duration.ofMinutes(1), clock);
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);
  private final StateKitHandler handler =
      new StateKitHandler(app.entryPoint(), new EmfMetricsSink("StateKit", "examples", out));
  private int requests;

  @BeforeEach
  void jsonLogs() {
    LogOutput.configure(LogFormat.JSON, LogLevel.DEBUG);
    LogOutput.writeTo(out);
  }

  @AfterEach
  void back() {
    LogOutput.reset();
  }

  @Test
  void everyLineOfARunIsJsonWithItsRequestLevelAndSubject() throws Exception {
    // A greeting with a trace id: the greeter's egress, its message to the audit, the audit's
    // egress (to the log sink).
    invoke(
        "{\"target\":\"example/greeter/Ada\",\"typename\":\"io.statefun.types/string\","
            + "\"value\":\"hi\",\"trace\":\""
            + TRACE
            + "\"}");
    invoke(sqsEvent(app.ingress().peekAll(), 1));
    // A poison message on its last attempt (5): dead-lettered with its error.
    invoke(
        sqsEvent(
            List.of(
                new BusMessage(
                    "example/greeter/Bob",
                    "poison",
                    "{\"target\":\"example/greeter/Bob\",\"typename\":\"io.statefun.types/int\","
                        + "\"value\":5}")),
            5));
    // A burst through the fraud check: its alerts logged in the pipeline's batch.
    invoke(fraudBurst());
    // A payload of no shape: refused, logged with its error.
    assertThrows(InvocationError.class, () -> invoke("{\"name\":\"Ada\"}"));

    List<JsonNode> lines = new ArrayList<>();
    List<JsonNode> documents = new ArrayList<>();
    for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
      JsonNode json = JSON.readTree(line); // throws on a line that is not one JSON object
      assertTrue(json.isObject(), line);
      (json.has("_aws") ? documents : lines).add(json);
      if (json.has("_aws")) {
        assertEquals(List.of(), EmfSpecification.violations(line), line);
      }
    }
    for (JsonNode line : lines) {
      for (String field : List.of("timestamp", "level", "message", "logger", "AWSRequestId")) {
        assertTrue(line.hasNonNull(field), "no " + field + ": " + line);
      }
      assertTrue(line.get("AWSRequestId").asText().startsWith("req-"), line.toString());
      assertTrue(line.hasNonNull("traceId"), "every line names its trace: " + line);
      LogLevel.parse(line.get("level").asText());
    }

    JsonNode audit =
        find(lines, l -> l.path("message").asText().startsWith("egress example/audits"));
    assertEquals(TRACE, audit.get("traceId").asText(), "the audit's egress, a hop after ingress");
    assertEquals("example/audit/all", audit.get("address").asText());
    assertEquals(
        TRACE,
        app.egress().get(Greeter.GREETS).records().get(0).traceId().orElseThrow(),
        "the greeting carries the trace");

    JsonNode dead = find(lines, l -> l.path("message").asText().startsWith("Dead letter"));
    assertEquals("WARN", dead.get("level").asText());
    assertEquals("dev.statekit.deadletters", dead.get("logger").asText());
    assertEquals("example/greeter/Bob", dead.get("address").asText());
    assertEquals("req-3", dead.get("AWSRequestId").asText());

    JsonNode alert = find(lines, l -> l.has("pipeline"));
    assertEquals("fraud-check", alert.get("pipeline").asText());
    assertEquals("transactions/shardId-000000000000", alert.get("split").asText());
    assertEquals("1", alert.get("batch").asText(), "the batch's first position");

    JsonNode refused = find(lines, l -> l.has("errorType"));
    assertEquals(
        "dev.statekit.entry.UnrecognizedPayloadException", refused.get("errorType").asText());
    assertTrue(refused.get("stackTrace").isArray(), "the whole trace is one field: " + refused);
    assertTrue(refused.get("stackTrace").size() > 3, refused.toString());

    assertFalse(documents.isEmpty(), "metrics were written");
    assertEquals(1, sum(documents, "MessagesApplied", null, "req-1"), "the greeting");
    assertEquals(1, sum(documents, "MessagesApplied", null, "req-2"), "the audit's message");
    assertEquals(1, sum(documents, "DeadLetters", null, "req-3"), "the poison");
    assertEquals(7, sum(documents, "PipelineRecords", "fraud-check", "req-4"));
    assertTrue(sum(documents, "WindowsFired", "fraud-check", "req-4") > 0);
    assertEquals(10, sum(documents, "MessagesApplied", null, "req-4"), "the alerts to the card");
    for (JsonNode document : documents) {
      assertNotNull(document.get("requestId"), "each document names its invocation");
    }
  }

  private static double sum(
      List<JsonNode> documents, String metric, String pipeline, String requestId) {
    double sum = 0;
    for (JsonNode document : documents) {
      if (document.has(metric)
          && requestId.equals(document.path("requestId").asText())
          && (pipeline == null || pipeline.equals(document.path("Pipeline").asText()))) {
        JsonNode value = document.get(metric);
        if (value.isArray()) {
          for (JsonNode v : value) {
            sum += v.asDouble();
          }
        } else {
          sum += value.asDouble();
        }
      }
    }
    return sum;
  }

  private static JsonNode find(List<JsonNode> lines, Predicate<JsonNode> test) {
    return lines.stream()
        .filter(test)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no such line among " + lines));
  }

  private byte[] invoke(String payload) throws Exception {
    return invoke(payload.getBytes(StandardCharsets.UTF_8));
  }

  private byte[] invoke(byte[] payload) throws Exception {
    ByteArrayOutputStream answer = new ByteArrayOutputStream();
    handler.handleRequest(new ByteArrayInputStream(payload), answer, context("req-" + ++requests));
    return answer.toByteArray();
  }

  private static String sqsEvent(List<BusMessage> messages, int receiveCount) {
    ObjectNode event = JSON.createObjectNode();
    ArrayNode records = event.putArray("Records");
    int n = 0;
    for (BusMessage message : messages) {
      ObjectNode record = records.addObject();
      record.put("messageId", "m-" + receiveCount + "-" + ++n);
      record.put("receiptHandle", "h" + n);
      record.put("body", message.body());
      ObjectNode attributes = record.putObject("attributes");
      attributes.put("ApproximateReceiveCount", Integer.toString(receiveCount));
      attributes.put("SequenceNumber", Long.toString(1000L * receiveCount + n));
      attributes.put("MessageGroupId", message.groupId());
      attributes.put("MessageDeduplicationId", message.deduplicationId());
      record.put("eventSource", "aws:sqs");
      record.put("eventSourceARN", "arn:aws:sqs:us-east-1:000000000000:statekit-Ingress.fifo");
    }
    return event.toString();
  }

  private static byte[] fraudBurst() throws Exception {
    List<Transaction> burst = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      burst.add(new Transaction("s" + i, "stolen", 1_000, "shop", "FR", T0 + i * 5_000));
    }
    burst.add(new Transaction("n", "normal", 500, "cafe", "FR", T0 + 30 * 60_000));
    ObjectNode event = JSON.createObjectNode();
    ArrayNode records = event.putArray("Records");
    int sequence = 0;
    for (Transaction t : burst) {
      ObjectNode record = records.addObject();
      ObjectNode kinesis = record.putObject("kinesis");
      kinesis.put("partitionKey", t.card());
      kinesis.put("sequenceNumber", Integer.toString(++sequence));
      kinesis.put("data", Base64.getEncoder().encodeToString(JSON.writeValueAsBytes(t)));
      kinesis.put("approximateArrivalTimestamp", t.time() / 1000.0);
      record.put("eventSource", "aws:kinesis");
      record.put("eventID", "shardId-000000000000:" + sequence);
      record.put("eventSourceARN", "arn:aws:kinesis:us-east-1:000000000000:stream/transactions");
    }
    return JSON.writeValueAsBytes(event);
  }

  private static Context context(String requestId) {
    return new Context() {
      @Override
      public String getAwsRequestId() {
        return requestId;
      }

      @Override
      public String getLogGroupName() {
        return "/aws/lambda/examples";
      }

      @Override
      public String getLogStreamName() {
        return "stream";
      }

      @Override
      public String getFunctionName() {
        return "examples";
      }

      @Override
      public String getFunctionVersion() {
        return "$LATEST";
      }

      @Override
      public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:000000000000:function:examples";
      }

      @Override
      public CognitoIdentity getIdentity() {
        return null;
      }

      @Override
      public ClientContext getClientContext() {
        return null;
      }

      @Override
      public int getRemainingTimeInMillis() {
        return 60_000;
      }

      @Override
      public int getMemoryLimitInMB() {
        return 1024;
      }

      @Override
      public LambdaLogger getLogger() {
        return null;
      }
    };
  }
}
