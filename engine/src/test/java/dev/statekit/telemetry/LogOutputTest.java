package dev.statekit.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One line per record, JSON or text, with the context's fields; levels and formats as Lambda's. */
class LogOutputTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final Log log = Log.named("dev.statekit.test");

  private List<String> lines() {
    String text = bytes.toString(StandardCharsets.UTF_8);
    return text.isEmpty() ? List.of() : List.of(text.split("\n"));
  }

  private void capture(LogFormat format, LogLevel level) {
    LogOutput.configure(format, level);
    LogOutput.writeTo(new PrintStream(bytes, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void back() {
    LogOutput.reset();
  }

  @Test
  void aJsonRecordIsOneLineWithLambdasFieldsAndTheErrorAsOneField() throws Exception {
    capture(LogFormat.JSON, LogLevel.INFO);
    Exception error =
        new IllegalStateException("outer\nsecond line", new RuntimeException("the \"cause\""));
    try (Telemetry.Scope scope = Telemetry.invocation("req-7", null, MetricsSink.none());
        Telemetry.Restore address = Telemetry.with(Telemetry.ADDRESS, "ns/type/id")) {
      log.warn("It went\nwrong", error);
    }

    assertEquals(1, lines().size(), lines().toString());
    JsonNode line = JSON.readTree(lines().get(0));
    assertEquals("WARN", line.get("level").asText());
    assertEquals("It went\nwrong", line.get("message").asText(), "kept whole, escaped");
    assertEquals("dev.statekit.test", line.get("logger").asText());
    assertEquals("req-7", line.get("AWSRequestId").asText());
    assertEquals("ns/type/id", line.get("address").asText());
    assertTrue(line.get("traceId").asText().startsWith("1-"));
    assertTrue(line.get("timestamp").asText().endsWith("Z"));
    assertEquals("java.lang.IllegalStateException", line.get("errorType").asText());
    assertEquals("outer\nsecond line", line.get("errorMessage").asText());
    String trace = line.get("stackTrace").toString();
    assertTrue(trace.contains("Caused by: java.lang.RuntimeException: the \\\"cause\\\""), trace);
  }

  @Test
  void aTextRecordIsOneReadableLine() {
    capture(LogFormat.TEXT, LogLevel.INFO);
    try (Telemetry.Restore pipeline = Telemetry.with(Telemetry.PIPELINE, "fraud")) {
      log.warn("two\nlines", new IllegalArgumentException("bad\r\ninput"));
    }

    assertEquals(1, lines().size(), lines().toString());
    String line = lines().get(0);
    assertTrue(line.contains(" WARN  dev.statekit.test [pipeline=fraud] two lines"), line);
    assertTrue(line.contains("| java.lang.IllegalArgumentException: bad"), line);
    assertTrue(line.contains(" at dev.statekit.telemetry.LogOutputTest"), line);
  }

  @Test
  void recordsBelowTheLevelAreNotWritten() {
    capture(LogFormat.JSON, LogLevel.WARN);
    log.info("not shown");
    log.debug("not shown");
    log.warn("shown");
    assertEquals(1, lines().size());
    assertFalse(log.isEnabled(LogLevel.INFO));
  }

  @Test
  void lambdasVariablesChooseFormatAndLevelAndATypoIsReportedNotThrown() {
    LogOutput.writeTo(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    LogOutput.useEnvironment(
        Map.of(LogOutput.FORMAT_VARIABLE, "JSON", LogOutput.LEVEL_VARIABLE, "debug"));
    assertEquals(LogFormat.JSON, LogOutput.format());
    assertEquals(LogLevel.DEBUG, LogOutput.level());

    LogOutput.useEnvironment(Map.of(LogOutput.FORMAT_VARIABLE, "Text"));
    assertEquals(LogFormat.TEXT, LogOutput.format());
    assertEquals(LogLevel.INFO, LogOutput.level(), "INFO by default");

    LogOutput.useEnvironment(Map.of(LogOutput.LEVEL_VARIABLE, "LOUD"));
    assertEquals(LogLevel.INFO, LogOutput.level(), "the default, not a failure");
  }

  @Test
  void theContextTravelsToTheThreadsACallFansOutTo() throws Exception {
    capture(LogFormat.JSON, LogLevel.INFO);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (Telemetry.Scope scope = Telemetry.invocation("req-8", null, MetricsSink.none())) {
      List<Callable<Void>> calls = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        calls.add(
            Telemetry.carry(
                () -> {
                  log.info("from a pool thread");
                  return null;
                }));
      }
      for (var future : pool.invokeAll(calls)) {
        future.get();
      }
    } finally {
      pool.shutdown();
    }
    assertEquals(4, lines().size());
    for (String line : lines()) {
      assertEquals("req-8", JSON.readTree(line).get("AWSRequestId").asText(), line);
    }
    assertEquals(Map.of(), Telemetry.fields(), "the scope closed");
  }

  @Test
  void aRoutedLoggerGoesToItsListenerUntilTheRouteCloses() {
    capture(LogFormat.TEXT, LogLevel.INFO);
    List<String> heard = new ArrayList<>();
    try (Telemetry.Restore route = LogOutput.route("dev.statekit", e -> heard.add(e.message()))) {
      log.info("to the listener");
    }
    log.info("to the output");
    assertEquals(List.of("to the listener"), heard);
    assertEquals(1, lines().size());
  }

  @Test
  void anXRayHeadersRootIsTheInvocationsTrace() {
    try (Telemetry.Scope scope =
        Telemetry.invocation(
            "r",
            "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1",
            MetricsSink.none())) {
      assertEquals("1-5759e988-bd862e3fe1be46a994272793", Telemetry.traceId());
    }
    try (Telemetry.Scope scope = Telemetry.invocation("r", null, MetricsSink.none())) {
      assertEquals(TraceIds.derivedFrom("r"), Telemetry.traceId(), "one per request id");
    }
    assertEquals(null, Telemetry.traceId());
  }
}
