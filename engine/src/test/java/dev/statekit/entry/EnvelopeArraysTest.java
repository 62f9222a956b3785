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
}
