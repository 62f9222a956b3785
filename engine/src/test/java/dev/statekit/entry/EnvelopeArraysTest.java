package dev.statekit.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.bus.InvalidEnvelopeException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * An array of envelopes is answered element by element, and the answer must be one Lambda can
 * return (6 MB): an array holds at most 10,000 envelopes, and a rejected one's reason is cut. The
 * array was unbounded: 300,000 empty elements (900 KB) were answered with 68 MB, after the valid
 * one was applied, and a million ran a 1.5 GB heap out of memory.
 */
class EnvelopeArraysTest {
  private static final int LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;
  private static final String VALID =
      "{\"target\":\"test/counter/a\",\"typename\":\"io.statefun.types/int\",\"value\":1,\"id\":\"k1\"}";

  private static byte[] array(String first, String element, int more) {
    StringBuilder payload = new StringBuilder("[").append(first);
    for (int i = 0; i < more; i++) {
      payload.append(',').append(element);
    }
    return payload.append(']').toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void anArrayOfMoreThanTenThousandIsRefusedWholeBeforeAnyIsApplied() {
    CounterRuntime counters = new CounterRuntime();
    EntryPoint entry = EntryPoint.builder().envelopes(counters.runtime.envelopeConsumer()).build();

    InvalidEnvelopeException refused =
        assertThrows(
            InvalidEnvelopeException.class, () -> entry.invoke(array(VALID, "{}", 10_000)));

    assertTrue(refused.getMessage().contains("at most 10000"), refused.getMessage());
    assertTrue(refused.getMessage().contains("send them in several"), refused.getMessage());
    assertEquals(0, counters.seen("a"));
  }

  @Test
  void tenThousandRejectedWithLongReasonsAreAnsweredWithinWhatLambdaReturns() throws Exception {
    CounterRuntime counters = new CounterRuntime();
    EntryPoint entry = EntryPoint.builder().envelopes(counters.runtime.envelopeConsumer()).build();
    String unknownField = "{\"" + "f".repeat(400) + "\":1}";

    byte[] answer = entry.invoke(array(VALID, unknownField, 9_999));

    assertTrue(answer.length < LAMBDA_RESPONSE_LIMIT, "answer of " + answer.length + " bytes");
    JsonNode results = new ObjectMapper().readTree(answer).get("results");
    assertEquals(10_000, results.size());
    assertEquals("applied", results.get(0).get("status").asText());
    String error = results.get(1).get("error").asText();
    assertTrue(error.length() <= 303 && error.endsWith("..."), error);
    assertEquals(1, counters.seen("a"));
  }

  /**
   * A reason quoting what the envelope held takes as many bytes in the answer as in the envelope,
   * and more: 5.6 MB of envelopes with control characters in a field's name made a 7 MB answer.
   */
  @Test
  void tenThousandRejectedWithEscapedReasonsAreAnsweredWithinWhatLambdaReturns() throws Exception {
    CounterRuntime counters = new CounterRuntime();
    EntryPoint entry = EntryPoint.builder().envelopes(counters.runtime.envelopeConsumer()).build();
    // 5.6 MB of envelopes, within what Lambda takes.
    String unknownField = "{\"" + "\\u0001".repeat(90) + "\":1}";

    byte[] answer = entry.invoke(array(VALID, unknownField, 9_999));

    assertTrue(answer.length < LAMBDA_RESPONSE_LIMIT, "answer of " + answer.length + " bytes");
    JsonNode results = new ObjectMapper().readTree(answer).get("results");
    assertEquals(10_000, results.size());
    assertEquals("applied", results.get(0).get("status").asText());
    assertEquals("rejected", results.get(9_999).get("status").asText());
    assertTrue(
        results.get(9_999).get("error").asText().contains("did not fit"),
        results.get(9_999).toString());
    assertEquals(1, counters.seen("a"));
  }

  /**
   * Replies take up to 16 KiB each: 600 calls answered whole made a 9 MB answer, which Lambda
   * cannot return, after every call was applied, and a retry under the same ids got the same
   * answer. The replies past what fits are left out, saying how to read them: each call again,
   * under its id, answers its stored reply.
   */
  @Test
  void callsWhoseRepliesDoNotFitTogetherAreAnsweredWithinWhatLambdaReturns() throws Exception {
    EchoRuntime echo = new EchoRuntime();
    EntryPoint entry = EntryPoint.builder().envelopes(echo.runtime.envelopeConsumer()).build();
    StringBuilder calls = new StringBuilder("[");
    for (int i = 0; i < 600; i++) {
      calls.append(i == 0 ? "" : ",").append(EchoRuntime.call(i));
    }
    byte[] answer = entry.invoke(calls.append(']').toString().getBytes(StandardCharsets.UTF_8));

    assertTrue(answer.length < LAMBDA_RESPONSE_LIMIT, "answer of " + answer.length + " bytes");
    JsonNode results = new ObjectMapper().readTree(answer).get("results");
    assertEquals(600, results.size());
    int replied = 0;
    for (JsonNode result : results) {
      assertEquals("applied", result.get("status").asText(), result.toString());
      if (result.get("reply").isNull()) {
        assertTrue(result.get("note").asText().contains("same id"), result.toString());
      } else {
        assertEquals(EchoRuntime.REPLY, result.get("reply").get("value").asText());
        replied++;
      }
    }
    assertTrue(replied > 300 && replied < 600, replied + " replies in the answer");
    JsonNode again =
        new ObjectMapper()
            .readTree(entry.invoke(EchoRuntime.call(599).getBytes(StandardCharsets.UTF_8)));
    assertTrue(again.get("repeat").asBoolean(), again.toString());
    assertEquals(EchoRuntime.REPLY, again.get("reply").get("value").asText());
    assertEquals(600, echo.applied.get(), "each call applied once");
  }
}
