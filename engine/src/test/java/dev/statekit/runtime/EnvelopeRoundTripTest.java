package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.bus.AddressResolver;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.entry.EntryPoint;
import dev.statekit.function.Address;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Envelopes and calls read back what was written: a message rendered as an envelope (a dead
 * letter's body) is the same message when sent again, and a call's path names one address.
 */
class EnvelopeRoundTripTest extends RuntimeFixture {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeName STRING = TypeName.parse("io.statefun.types/string");
  private static final TypeName LONG = TypeName.parse("io.statefun.types/long");

  /**
   * Bytes that are no value of their built-in type (raw UTF-8 under io.statefun.types/string) were
   * rendered as base64 text under "value", which parse reads as the string itself: sent again, the
   * function got the 10 bytes of "aGVsbG8=" instead of the 5 sent, without an error.
   */
  @Test
  void anEnvelopeOfAStringMessageReadsBackAsTheBytesItWasRenderedFrom() {
    Address target = address(TestFunctions.FLAKY, "raw");
    byte[] raw = "hello".getBytes(StandardCharsets.UTF_8);
    Message message = MessageBuilder.forAddress(target).withRawValue(STRING, raw).build();

    String envelope = Ingress.envelope(message, "k");
    EnvelopeCodec.Envelope read =
        EnvelopeCodec.parse(
            EnvelopeCodec.tree(envelope), new AddressResolver(TestFunctions.registry()));

    assertArrayEquals(raw, read.value(), "as sent, not the text of its base64: " + envelope);
  }

  /**
   * Other built-in types: the rendered envelope (a dead letter's body) was refused by the reader.
   */
  @Test
  void anEnvelopeOfALongMessageWithOtherBytesCanBeReadBack() {
    Address target = address(TestFunctions.ACCOUNT, "raw");
    byte[] raw = {1, 2, 3};

    ObjectNode envelope = EnvelopeCodec.render(target, LONG.asString(), raw, "k");

    EnvelopeCodec.Envelope read =
        assertDoesNotThrow(
            () -> EnvelopeCodec.parse(envelope, new AddressResolver(TestFunctions.registry())),
            envelope::toString);
    assertArrayEquals(raw, read.value());
  }

  /**
   * A /call/ path whose percent-encoded bytes are not UTF-8 is refused: decoded leniently, /x%FF
   * and /x%FE both called the address ".../x\uFFFD", sharing its state and keys.
   */
  @Test
  void aCallPathThatIsNotUtf8IsRefusedNotMergedWithAnother() throws Exception {
    FunctionRuntime runtime = runtime();
    EntryPoint entry =
        EntryPoint.builder()
            .functions(TestFunctions.registry())
            .httpCalls(runtime.envelopeConsumer())
            .build();
    String body = "{\"typename\":\"io.statefun.types/long\",\"value\":3}";
    String base = "/call/test/account/utf8-" + run;

    JsonNode ff = httpCall(entry, base + "%FF", "p1", body);
    JsonNode fe = httpCall(entry, base + "%FE", "p2", body);

    assertEquals(400, ff.get("statusCode").asInt(), ff::toString);
    assertEquals(400, fe.get("statusCode").asInt(), fe::toString);
  }

  /**
   * A key names one message (docs/runtime.md): another message sent under a key already applied is
   * taken for its repeat, answered with the first's reply, and not applied.
   */
  @Test
  void anotherMessageUnderAUsedKeyIsTakenForItsRepeat() throws Exception {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "reused");
    String call =
        "{\"target\":\""
            + account
            + "\",\"typename\":\"io.statefun.types/long\",\"value\":%d,\"id\":\"K\",\"call\":true}";

    runtime.invokeJson(String.format(call, 5).getBytes(StandardCharsets.UTF_8));
    JsonNode other =
        JSON.readTree(
            runtime.invokeJson(String.format(call, 500).getBytes(StandardCharsets.UTF_8)));

    assertEquals(true, other.get("repeat").asBoolean(), other::toString);
    assertEquals(5, value(account, TestFunctions.SUM));
  }

  /** An envelope gives its value once: as "value" or as "base64". */
  @Test
  void anEnvelopeWithBothValueAndBase64IsRefused() {
    String both =
        "{\"target\":\"test/account/x\",\"typename\":\"io.statefun.types/long\",\"value\":1,"
            + "\"base64\":\"AQ==\"}";
    dev.statekit.bus.InvalidEnvelopeException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            dev.statekit.bus.InvalidEnvelopeException.class,
            () ->
                EnvelopeCodec.parse(
                    EnvelopeCodec.tree(both), new AddressResolver(TestFunctions.registry())));
    org.junit.jupiter.api.Assertions.assertTrue(
        refused.getMessage().contains("both 'value' and 'base64'"), refused.getMessage());
  }

  private static JsonNode httpCall(EntryPoint entry, String path, String key, String body)
      throws Exception {
    ObjectNode event = JSON.createObjectNode();
    event.put("rawPath", path);
    event.putObject("requestContext").putObject("http").put("method", "POST");
    ObjectNode headers = event.putObject("headers");
    headers.put("content-type", "application/json");
    headers.put("idempotency-key", key);
    event.put("body", body);
    return JSON.readTree(entry.invoke(event.toString().getBytes(StandardCharsets.UTF_8)));
  }
}
