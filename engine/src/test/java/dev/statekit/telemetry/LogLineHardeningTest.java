package dev.statekit.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Hostile messages, fields and errors: still exactly one line, JSON that parses, and no hang. */
class LogLineHardeningTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final Log log = Log.named("dev.statekit.test");

  private List<String> lines() {
    String text = bytes.toString(StandardCharsets.UTF_8);
    // Any line terminator a log reader may split on counts.
    return text.isEmpty() ? List.of() : List.of(text.split("\r\n|\n|\r|\u2028|\u2029|\u0085"));
  }

  private void capture(LogFormat format) {
    LogOutput.configure(format, LogLevel.INFO);
    LogOutput.writeTo(new PrintStream(bytes, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void back() {
    LogOutput.reset();
  }

  /** An address id is user data: a line break in it must not forge a second text line. */
  @Test
  void aTextLinesFieldWithLineBreaksStaysOneLine() {
    capture(LogFormat.TEXT);
    try (Telemetry.Restore address =
            Telemetry.with(
                Telemetry.ADDRESS, "shop/cart/eve\n2026-12-01T00:00:00Z ERROR forged\r\u2028x");
        Telemetry.Restore split = Telemetry.with(Telemetry.SPLIT, "a\u0085b")) {
      log.info("applied\u2029now");
    }
    assertEquals(1, lines().size(), lines().toString());
    assertTrue(lines().get(0).contains("forged"), lines().get(0));
  }

  /** A cause chain that loops back to a cause (not to the top error) ends. */
  @Test
  void aTextLineOfAnErrorWhoseCausesLoopEnds() {
    capture(LogFormat.TEXT);
    RuntimeException top = new RuntimeException("top");
    RuntimeException b = new RuntimeException("b");
    RuntimeException c = new RuntimeException("c");
    top.initCause(b);
    b.initCause(c);
    c.initCause(b);
    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> log.warn("looping causes", top));
    assertEquals(1, lines().size());
    assertTrue(lines().get(0).contains("caused by java.lang.RuntimeException: c"), lines().get(0));
  }

  @Test
  void aJsonLineOfAnErrorWhoseCausesLoopEnds() throws Exception {
    capture(LogFormat.JSON);
    RuntimeException top = new RuntimeException("top");
    RuntimeException b = new RuntimeException("b");
    top.initCause(b);
    b.initCause(top);
    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> log.warn("looping causes", top));
    assertEquals(1, lines().size());
    JSON.readTree(lines().get(0));
  }

  @Test
  void hostileTextIsOneValidJsonLineKeptWhole() throws Exception {
    capture(LogFormat.JSON);
    StringBuilder control = new StringBuilder();
    for (char c = 0; c < 0x20; c++) {
      control.append(c);
    }
    String message =
        "quote \" backslash \\ controls "
            + control
            + " del \u007f seps \u2028\u2029\u0085 unicode ü 日本 \uD83D\uDE00 html </script>";
    RuntimeException deep = new RuntimeException("level 0\nwith \"quotes\"");
    for (int i = 1; i < 2_000; i++) {
      deep = new RuntimeException("level " + i, deep);
    }
    String huge = "x".repeat(1 << 20);
    try (Telemetry.Restore address = Telemetry.with(Telemetry.ADDRESS, "ns/t/" + message)) {
      log.warn(message, deep);
      log.info(huge);
    }
    assertEquals(2, lines().size());
    JsonNode first = JSON.readTree(lines().get(0));
    assertEquals(message, first.get("message").asText());
    assertEquals("ns/t/" + message, first.get("address").asText());
    assertTrue(first.get("stackTrace").isArray());
    assertTrue(first.get("stackTrace").toString().contains("level 0"));
    assertEquals(huge, JSON.readTree(lines().get(1)).get("message").asText());
  }

  @Test
  void aTextLineOfHostileTextIsOneLine() {
    capture(LogFormat.TEXT);
    RuntimeException error = new RuntimeException("a\nb\rc\u2028d\u0085e");
    log.warn("m\r\nn\u2029o", error);
    assertEquals(1, lines().size(), lines().toString());
  }
}
