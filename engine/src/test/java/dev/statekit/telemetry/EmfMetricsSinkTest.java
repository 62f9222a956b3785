package dev.statekit.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The EMF documents against the specification's checker, at and past EMF's limits. */
class EmfMetricsSinkTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> lines = new ArrayList<>();
  private final EmfMetricsSink sink = new EmfMetricsSink("StateKit", "shop", lines::add);

  @Test
  void everyMetricOfAnInvocationIsOneValidDocumentPerDimensionSet() throws Exception {
    try (Telemetry.Scope scope = Telemetry.invocation("req-1", null, sink)) {
      for (Metric metric : Metric.values()) {
        if (metric.perPipeline()) {
          Metrics.add(metric, "fraud-check", 3);
          Metrics.add(metric, "other", 1);
        } else {
          Metrics.add(metric, 2);
          Metrics.add(metric, 5);
        }
      }
    }

    assertEquals(3, lines.size(), "the runtime's, and one per pipeline: " + lines);
    for (String line : lines) {
      assertEquals(List.of(), EmfSpecification.violations(line), line);
    }
    JsonNode runtime = JSON.readTree(lines.get(0));
    assertEquals("shop", runtime.get("Application").asText());
    assertEquals(7, runtime.get("MessagesApplied").asInt(), "counts are summed");
    assertEquals("[2,5]", runtime.get("TimerLateness").toString(), "other values kept apart");
    assertEquals("req-1", runtime.get("requestId").asText());
    assertTrue(runtime.get("traceId").asText().startsWith("1-"));
    assertEquals(
        "[[\"Application\"]]", runtime.at("/_aws/CloudWatchMetrics/0/Dimensions").toString());
    JsonNode fraud = JSON.readTree(lines.get(1));
    assertEquals("fraud-check", fraud.get("Pipeline").asText());
    assertEquals(
        "[[\"Application\",\"Pipeline\"]]",
        fraud.at("/_aws/CloudWatchMetrics/0/Dimensions").toString());
    assertFalse(fraud.has("MessagesApplied"), "no runtime metric in a pipeline's document");
  }

  @Test
  void moreThanAHundredValuesGoToFurtherDocuments() throws Exception {
    try (Telemetry.Scope scope = Telemetry.invocation("req-2", null, sink)) {
      for (int i = 0; i < 250; i++) {
        Metrics.add(Metric.TIMER_LATENESS, i);
      }
      Metrics.add(Metric.MESSAGES_APPLIED, 9);
    }

    assertEquals(3, lines.size(), lines.toString());
    int values = 0;
    for (String line : lines) {
      assertEquals(List.of(), EmfSpecification.violations(line), line);
      JsonNode lateness = JSON.readTree(line).get("TimerLateness");
      values += lateness.isArray() ? lateness.size() : 1;
    }
    assertEquals(250, values, "every value, once");
    assertEquals(9, JSON.readTree(lines.get(0)).get("MessagesApplied").asInt());
    assertFalse(JSON.readTree(lines.get(1)).has("MessagesApplied"), "counted once");
  }

  @Test
  void anInvocationThatRecordedNothingWritesNothing() {
    try (Telemetry.Scope scope = Telemetry.invocation("req-3", null, sink)) {
      Log.named("test").debug("nothing measured");
    }
    assertEquals(List.of(), lines);
  }

  @Test
  void metricsRecordedOutsideAnInvocationGoNowhere() {
    Metrics.add(Metric.MESSAGES_APPLIED, 1);
    try (Telemetry.Scope scope = Telemetry.invocation("req-4", null, sink)) {
      Metrics.add(Metric.DEAD_LETTERS, 1);
    }
    assertEquals(1, lines.size());
    assertFalse(lines.get(0).contains("MessagesApplied"), lines.get(0));
  }

  @Test
  void theCheckerFindsWhatBreaksTheSpecification() {
    String valid =
        "{\"_aws\":{\"Timestamp\":1,\"CloudWatchMetrics\":[{\"Namespace\":\"n\","
            + "\"Dimensions\":[[\"A\"]],\"Metrics\":[{\"Name\":\"M\",\"Unit\":\"Count\"}]}]},"
            + "\"A\":\"a\",\"M\":1}";
    assertEquals(List.of(), EmfSpecification.violations(valid));
    assertFalse(EmfSpecification.violations(valid.replace(",\"M\":1", "")).isEmpty(), "no value");
    assertFalse(EmfSpecification.violations(valid.replace("Count", "Counts")).isEmpty(), "unit");
    assertFalse(EmfSpecification.violations(valid.replace("\"A\":\"a\",", "")).isEmpty(), "dim");
    assertFalse(
        EmfSpecification.violations(valid.replace("\"Timestamp\":1", "\"Timestamp\":\"1\""))
            .isEmpty());
    StringBuilder many = new StringBuilder("[");
    for (int i = 0; i < 101; i++) {
      many.append(i == 0 ? "" : ",").append(i);
    }
    assertFalse(
        EmfSpecification.violations(valid.replace("\"M\":1", "\"M\":" + many + "]")).isEmpty(),
        "101 values");
  }

  @Test
  void theEnvironmentTurnsEmfOnOnLambdaOnly() {
    assertTrue(
        EmfMetricsSink.fromEnvironment(Map.of("AWS_LAMBDA_FUNCTION_NAME", "f"))
            instanceof EmfMetricsSink);
    assertFalse(EmfMetricsSink.fromEnvironment(Map.of()) instanceof EmfMetricsSink);
    assertFalse(
        EmfMetricsSink.fromEnvironment(
                Map.of("AWS_LAMBDA_FUNCTION_NAME", "f", "STATEKIT_METRICS", "off"))
            instanceof EmfMetricsSink);
    assertTrue(
        EmfMetricsSink.fromEnvironment(Map.of("STATEKIT_METRICS", "emf"))
            instanceof EmfMetricsSink);
  }
}
