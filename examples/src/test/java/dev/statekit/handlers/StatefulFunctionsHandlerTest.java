package dev.statekit.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.entry.InvocationError;
import dev.statekit.examples.greeter.GreeterHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.apache.flink.statefun.sdk.java.slice.Slices;
import org.apache.flink.statefun.sdk.java.types.Types;
import org.apache.flink.statefun.sdk.reqreply.generated.Address;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.ToFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.TypedValue;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

/** The example handler with Lambda event fixtures and direct invokes; answers read by the SDK. */
class StatefulFunctionsHandlerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final GreeterHandler handler = new GreeterHandler();

  @Test
  void theFixtureIsAFunctionUrlEvent() {
    APIGatewayV2HTTPEvent event =
        EventLoader.loadApiGatewayHttpEvent("events/function-url-greeter.json");

    assertEquals("POST", event.getRequestContext().getHttp().getMethod());
    assertTrue(event.getIsBase64Encoded());
    assertEquals(ToFunctionBytes.PREFIX, Base64.getDecoder().decode(event.getBody())[0] & 0xFF);
  }

  @Test
  void aFunctionUrlEventIsAnsweredWithTheHttpResponseShape() throws Exception {
    JsonNode response = invokeEvent("function-url-greeter.json");

    assertEquals(200, response.get("statusCode").asInt());
    assertEquals("application/octet-stream", response.get("headers").get("Content-Type").asText());
    assertTrue(response.get("isBase64Encoded").asBoolean());
    FromFunction.InvocationResponse result = fromBody(response).getInvocationResult();
    assertEquals(
        "Hello Ada! I have seen you 3 times.", string(result.getOutgoingEgresses(0).getArgument()));
    assertEquals("example", result.getOutgoingEgresses(0).getEgressNamespace());
    assertEquals("greets", result.getOutgoingEgresses(0).getEgressType());
    assertEquals("all", result.getOutgoingMessages(0).getTarget().getId());
    assertEquals("Ada:3", string(result.getOutgoingMessages(0).getArgument()));
  }

  @Test
  void anApiGatewayRestEventWorksToo() throws Exception {
    JsonNode response = invokeEvent("apigateway-rest-greeter.json");

    assertEquals(200, response.get("statusCode").asInt());
    assertTrue(fromBody(response).hasInvocationResult());
  }

  @Test
  void missingStateIsAskedForThroughTheCatchAllPath() throws Exception {
    JsonNode response = invokeEvent("function-url-missing-state.json");

    FromFunction answer = fromBody(response);
    assertEquals(
        "seen", answer.getIncompleteInvocationContext().getMissingValues(0).getStateName());
  }

  @Test
  void httpRulesApplyToEvents() throws Exception {
    JsonNode get = invokeEvent("function-url-get.json");
    assertEquals(405, get.get("statusCode").asInt());
    assertEquals("POST", get.get("headers").get("Allow").asText());
    assertFalse(get.get("isBase64Encoded").asBoolean());

    assertEquals(415, invokeEvent("function-url-json-body.json").get("statusCode").asInt());
    JsonNode empty = invokeEvent("function-url-empty-body.json");
    assertEquals(400, empty.get("statusCode").asInt());
    assertTrue(empty.get("body").asText().contains("empty"), empty.toString());

    JsonNode wrongPath = invokeEvent("function-url-wrong-path.json");
    assertEquals(400, wrongPath.get("statusCode").asInt());
    assertTrue(wrongPath.get("body").asText().contains("example/audit"), wrongPath.toString());
  }

  @Test
  void aFailingFunctionIsA500WithoutStackTrace() throws Exception {
    byte[] event = event("POST", ToFunctionBytes.greeter(Types.integerType().typeName(), 5));

    JsonNode response = invoke(event);

    assertEquals(500, response.get("statusCode").asInt());
    String body = response.get("body").asText();
    assertTrue(body.contains("example/greeter/Ada failed on message 1"), body);
    assertFalse(body.contains("\tat "), body);
  }

  @Test
  void aDirectInvokeTakesAndAnswersRawBytes() throws Exception {
    byte[] request = ToFunctionBytes.greeter(Types.stringType().typeName(), "hi");

    byte[] answer = invokeRaw(request);

    FromFunction parsed = FromFunction.parseFrom(answer);
    assertEquals(
        "Hello Ada! I have seen you 1 times.",
        string(parsed.getInvocationResult().getOutgoingEgresses(0).getArgument()));
  }

  @Test
  void aFailingDirectInvokeIsALambdaErrorNamingTheMessageNotTheCause() {
    byte[] request = ToFunctionBytes.greeter(Types.integerType().typeName(), 5);

    var e = assertThrows(InvocationError.class, () -> invokeRaw(request));

    assertTrue(e.getMessage().contains("example/greeter/Ada failed on message 1"), e.getMessage());
    assertTrue(e.getMessage().contains("(error "), e.getMessage());
    assertFalse(e.getMessage().contains("Exception"), e.getMessage());
  }

  @Test
  void payloadsOfNoKnownKindAreRefused() {
    var garbage =
        assertThrows(
            InvocationError.class, () -> invokeRaw("hello".getBytes(StandardCharsets.UTF_8)));
    assertTrue(garbage.getMessage().contains("68 65 6c 6c 6f"), garbage.getMessage());

    var notEvent =
        assertThrows(
            InvocationError.class,
            () -> invokeRaw("{\"name\":\"Ada\"}".getBytes(StandardCharsets.UTF_8)));
    assertTrue(notEvent.getMessage().contains("not an HTTP event"), notEvent.getMessage());

    byte[] truncated = {(byte) 0xA2, 0x06, 0x50, 0x0A};
    var cut = assertThrows(InvocationError.class, () -> invokeRaw(truncated));
    assertTrue(cut.getMessage().startsWith("MalformedRequestException: "), cut.getMessage());
  }

  private JsonNode invokeEvent(String fixture) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/events/" + fixture)) {
      return invoke(in.readAllBytes());
    }
  }

  private JsonNode invoke(byte[] event) throws IOException {
    return JSON.readTree(invokeRaw(event));
  }

  private byte[] invokeRaw(byte[] payload) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(new ByteArrayInputStream(payload), out, null);
    return out.toByteArray();
  }

  private static byte[] event(String method, byte[] body) throws IOException {
    var event = JSON.createObjectNode();
    event.put("version", "2.0").put("rawPath", "/").put("isBase64Encoded", true);
    event.putObject("headers").put("content-type", "application/octet-stream");
    event.putObject("requestContext").putObject("http").put("method", method);
    event.put("body", Base64.getEncoder().encodeToString(body));
    return JSON.writeValueAsBytes(event);
  }

  private static FromFunction fromBody(JsonNode response) throws IOException {
    return FromFunction.parseFrom(Base64.getDecoder().decode(response.get("body").asText()));
  }

  private static String string(TypedValue value) {
    return Types.stringType()
        .typeSerializer()
        .deserialize(Slices.wrap(value.getValue().toByteArray()));
  }

  /** Requests for example/greeter/Ada, built with the SDK's generated classes. */
  static final class ToFunctionBytes {
    static final int PREFIX = 0xA2;

    static <T> byte[] greeter(org.apache.flink.statefun.sdk.java.TypeName type, T argument) {
      org.apache.flink.statefun.sdk.java.types.Type<T> sdkType = sdkType(type);
      return ToFunction.newBuilder()
          .setInvocation(
              ToFunction.InvocationBatchRequest.newBuilder()
                  .setTarget(
                      Address.newBuilder().setNamespace("example").setType("greeter").setId("Ada"))
                  .addState(ToFunction.PersistedValue.newBuilder().setStateName("seen"))
                  .addInvocations(
                      ToFunction.Invocation.newBuilder()
                          .setArgument(
                              TypedValue.newBuilder()
                                  .setTypename(type.asTypeNameString())
                                  .setHasValue(true)
                                  .setValue(
                                      ByteString.copyFrom(
                                          sdkType
                                              .typeSerializer()
                                              .serialize(argument)
                                              .toByteArray())))))
          .build()
          .toByteArray();
    }

    @SuppressWarnings("unchecked")
    private static <T> org.apache.flink.statefun.sdk.java.types.Type<T> sdkType(
        org.apache.flink.statefun.sdk.java.TypeName type) {
      return (org.apache.flink.statefun.sdk.java.types.Type<T>)
          (type.equals(Types.stringType().typeName()) ? Types.stringType() : Types.integerType());
    }
  }
}
