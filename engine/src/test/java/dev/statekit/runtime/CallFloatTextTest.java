package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.entry.EntryPoint;
import dev.statekit.function.Address;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A float sent as a request-reply call on the function URL's /call/ path is the float its text
 * names, as a direct invoke's is. The call's body is parsed and written again with the target
 * before the runtime reads it, and the number was written as its double (Double.toString), another
 * text, which for a text near the midpoint of two floats names the other float, silently.
 */
class CallFloatTextTest extends RuntimeFixture {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final TypeName KEEPER = TypeName.of("floats", "keeper");
  static final ValueSpec<Float> LAST = ValueSpec.named("last").withFloatType();

  static StatefulFunctions functions() {
    return StatefulFunctions.builder()
        .withFunction(
            KEEPER, (context, message) -> context.storage().set(LAST, message.asFloat()), LAST)
        .build();
  }

  private JsonNode call(EntryPoint entry, String path, String key, String body) throws Exception {
    ObjectNode event = JSON.createObjectNode();
    event.put("rawPath", path);
    event.putObject("requestContext").putObject("http").put("method", "POST");
    ObjectNode headers = event.putObject("headers");
    headers.put("content-type", "application/json");
    headers.put("idempotency-key", key);
    event.put("body", body);
    return JSON.readTree(entry.invoke(event.toString().getBytes(StandardCharsets.UTF_8)));
  }

  private float stored(Address address) {
    var value = store().reload(address).values().get(LAST.name());
    return Types.floatType().deserialize(value.bytes());
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.00000005960464477539062499999", "2.3611652721911013E-7"})
  void aFloatSentAsACallIsTheFloatItsTextNamesAsADirectInvokeIs(String text) throws Exception {
    FunctionRuntime runtime = runtime(b -> {}, functions());
    EntryPoint entry =
        EntryPoint.builder()
            .functions(functions())
            .envelopes(runtime.envelopeConsumer())
            .httpCalls(runtime.envelopeConsumer())
            .build();
    Address direct = address(KEEPER, "direct");
    Address called = address(KEEPER, "called");

    entry.invoke(
        ("{\"target\":\""
                + direct
                + "\",\"typename\":\"io.statefun.types/float\",\"value\":"
                + text
                + ",\"id\":\"d1\"}")
            .getBytes(StandardCharsets.UTF_8));
    JsonNode answer =
        call(
            entry,
            "/call/" + called,
            "c1",
            "{\"typename\":\"io.statefun.types/float\",\"value\":" + text + "}");
    assertEquals(200, answer.get("statusCode").asInt(), answer::toString);

    float named = Float.parseFloat(text);
    assertEquals(named, stored(direct), "a direct invoke applies the float " + text + " names");
    assertEquals(named, stored(called), "a call applies the float " + text + " names");
  }
}
