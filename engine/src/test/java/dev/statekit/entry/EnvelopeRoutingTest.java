package dev.statekit.entry;

import static dev.statekit.entry.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The entry point hands an ingress direct invoke to the runtime, which answers it as it answers the
 * same bytes itself (docs/runtime.md "Ingress"; docs/lambda.md "One entry point").
 */
class EnvelopeRoutingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String GOOD =
      "{\"target\":\"test/counter/a\",\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}";
  private static final String BAD_TARGET =
      "{\"target\":42,\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}";

  private final CounterRuntime counter = new CounterRuntime();
  private final EntryPoint entry =
      EntryPoint.builder().envelopes(counter.runtime.envelopeConsumer()).build();

  /**
   * An array's malformed envelope is rejected by name and the others are applied (docs/runtime.md,
   * Ingress). The entry point refused the whole array as matching no payload, so Lambda's retries
   * of an asynchronous invoke refused it the same way until the good envelopes were dropped.
   */
  @Test
  void anArrayWithOneMalformedEnvelopeStillAppliesTheOthers() throws Exception {
    byte[] answer = entry.invoke(utf8("[" + GOOD + "," + BAD_TARGET + "]"));

    JsonNode results = JSON.readTree(answer).get("results");
    assertEquals("applied", results.get(0).get("status").asText());
    assertEquals("rejected", results.get(1).get("status").asText());
    assertTrue(results.get(1).get("error").asText().contains("target"), results.toString());
    assertEquals(1, counter.seen("a"));
  }

  /** An envelope is read past a UTF-8 byte order mark, as every other JSON payload is. */
  @Test
  void anEnvelopeAfterAByteOrderMarkIsAppliedLikeAnyOtherEnvelope() throws Exception {
    byte[] text = utf8(GOOD);
    byte[] payload = new byte[text.length + 3];
    payload[0] = (byte) 0xEF;
    payload[1] = (byte) 0xBB;
    payload[2] = (byte) 0xBF;
    System.arraycopy(text, 0, payload, 3, text.length);
    assertEquals(PayloadShape.ENVELOPE, EntryPoint.shapeOf(payload), "told as an envelope");

    byte[] answer = entry.invoke(payload);

    assertEquals("applied", JSON.readTree(answer).get("status").asText());
    assertEquals(1, counter.seen("a"));
  }

  /** A lone envelope with a malformed target gets the envelope reader's error naming the field. */
  @Test
  void aMalformedEnvelopeIsRefusedForWhatIsWrongWithIt() {
    var refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            dev.statekit.bus.InvalidEnvelopeException.class, () -> entry.invoke(utf8(BAD_TARGET)));

    assertTrue(refused.getMessage().contains("'target'"), refused.getMessage());
  }
}
