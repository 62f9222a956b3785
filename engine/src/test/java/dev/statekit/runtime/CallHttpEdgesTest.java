package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.entry.EntryPoint;
import dev.statekit.function.Address;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Forged and malformed HTTP calls: each refused with a 4xx that says why, and nothing applied. */
class CallHttpEdgesTest extends RuntimeFixture {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BODY = "{\"typename\":\"io.statefun.types/long\",\"value\":3}";

  private JsonNode call(EntryPoint entry, String path, String key, String body) throws Exception {
    ObjectNode event = JSON.createObjectNode();
    event.put("rawPath", path);
    event.putObject("requestContext").putObject("http").put("method", "POST");
    ObjectNode headers = event.putObject("headers");
    headers.put("content-type", "application/json");
    if (key != null) {
      headers.put("idempotency-key", key);
    }
    event.put("body", body);
    return JSON.readTree(entry.invoke(event.toString().getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void forgedAndMalformedCallsAreRefusedWithAReasonAndApplyNothing() throws Exception {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "edges");
    EntryPoint entry =
        EntryPoint.builder()
            .functions(TestFunctions.registry())
            .httpCalls(runtime.envelopeConsumer())
            .build();
    String path = "/call/" + account;
    String[][] refused = {
      {"/call/test/account/%zz", "k1", BODY, "percent-encoding"},
      {path, "k2", BODY.replace("{", "{\"target\":\"test/account/other\","), "'target'"},
      {path, "k3", BODY.replace("{", "{\"call\":false,"), "'call'"},
      {path, "k4", BODY.replace("{", "{\"id\":\"other\","), "differ"},
      {path, "k5", BODY.replace("{", "{\"trace\":\"" + "t".repeat(10_000) + "\","), "'trace'"},
      {path, "k6", BODY.replace("{", "{\"trace\":\"a b\","), "'trace'"},
      {path, "k7", BODY.replace("{", "{\"trace\":\"a\\\"b\","), "'trace'"},
      {path, "x".repeat(10_000), BODY, "'id'"},
      {path, null, BODY.replace("{", "{\"id\":17,"), "'id'"},
      {path, "k8", "[" + BODY + "]", "JSON object"},
      {path, "k9", BODY + BODY, "not JSON"},
      {path, "k10", BODY.replace("3", "\"3\""), "not a io.statefun.types/long"},
      {path, "k11", BODY.replace("}", ",\"timeoutMillis\":-1}"), "'timeoutMillis'"},
      {path, "k12", BODY.replace("}", ",\"extra\":1}"), "Unknown envelope field"},
    };
    for (String[] request : refused) {
      JsonNode answer = call(entry, request[0], request[1], request[2]);
      String what = request[3] + ": " + answer;
      assertEquals(400, answer.get("statusCode").asInt(), what);
      assertTrue(answer.get("body").asText().contains(request[3]), what);
    }
    JsonNode ok =
        call(
            entry,
            path,
            "k-ok",
            BODY.replace("{", "{\"trace\":\"1-5759e988-bd862e3fe1be46a994272793\","));
    assertEquals(200, ok.get("statusCode").asInt(), ok::toString);
    var value = store().reload(account).values().get(TestFunctions.SUM.name());
    assertEquals(3L, dev.statekit.types.Types.longType().deserialize(value.bytes()));
  }

  /**
   * An event's path may hold text itself (a gateway may hand it over decoded): the call reaches the
   * address it names, as its percent-encoded form does, and no other. Each char was cut to its low
   * byte, so a call to test/account/\u0131 (dotless i) changed test/account/1.
   */
  @Test
  void aPathHoldingTextReachesTheAddressItNamesAndNoOther() throws Exception {
    FunctionRuntime runtime = runtime();
    EntryPoint entry =
        EntryPoint.builder()
            .functions(TestFunctions.registry())
            .httpCalls(runtime.envelopeConsumer())
            .build();
    Address dotless = address(TestFunctions.ACCOUNT, "\u0131");
    Address smiling = address(TestFunctions.ACCOUNT, "\uD83D\uDE00");
    // U+2D800, a CJK Extension F ideograph, whose code point's low 16 bits are a surrogate's.
    Address ideograph = address(TestFunctions.ACCOUNT, new String(Character.toChars(0x2D800)));
    String percent = java.net.URLEncoder.encode(dotless.id(), StandardCharsets.UTF_8);
    JsonNode decoded = call(entry, "/call/" + dotless, "p1", BODY);
    JsonNode encoded = call(entry, "/call/test/account/" + percent, "p2", BODY);
    JsonNode astral = call(entry, "/call/" + smiling, "p3", BODY);
    JsonNode cjk = call(entry, "/call/" + ideograph, "p4", BODY);

    String answers = decoded + " " + encoded + " " + astral + " " + cjk;
    assertTrue(percent.startsWith("%C4%B1"), percent);
    assertEquals(200, decoded.get("statusCode").asInt(), answers);
    assertEquals(200, encoded.get("statusCode").asInt(), answers);
    assertEquals(200, astral.get("statusCode").asInt(), answers);
    assertEquals(200, cjk.get("statusCode").asInt(), answers);
    assertEquals(6L, sum(dotless), answers);
    assertEquals(3L, sum(smiling), answers);
    assertEquals(3L, sum(ideograph), answers);
    assertEquals(
        null,
        store().reload(address(TestFunctions.ACCOUNT, "1")).values().get(TestFunctions.SUM.name()),
        "a call to " + dotless + " changed test/account/1");
  }

  private long sum(Address account) {
    var value = store().reload(account).values().get(TestFunctions.SUM.name());
    return dev.statekit.types.Types.longType().deserialize(value.bytes());
  }
}
