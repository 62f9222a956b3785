package dev.statekit.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.protocol.MalformedRequestException;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A function URL event's body is held to the endpoint's limit before it is decoded. */
class HttpEventLimitsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpEventAdapter adapter =
      new HttpEventAdapter(
          new HttpRouter(
              new RequestReplyHandler(
                  StatefulFunctions.builder()
                      .withFunction(TypeName.of("a", "b"), (context, message) -> {})
                      .build()),
              1000));

  @Test
  void aBodyPastTheLimitIsA413BeforeDecoding() throws Exception {
    JsonNode answer = JSON.readTree(adapter.handle(event("A".repeat(4000), true)));

    assertEquals(413, answer.get("statusCode").asInt());
    assertTrue(answer.get("body").asText().contains("limit of 1000"), answer.toString());
  }

  @Test
  void aPayloadThatIsNoJsonOrTooDeepIsAMalformedRequest() {
    var notJson =
        assertThrows(
            MalformedRequestException.class,
            () -> adapter.handle("{nope".getBytes(StandardCharsets.UTF_8)));
    var deep =
        assertThrows(
            MalformedRequestException.class,
            () ->
                adapter.handle(
                    ("[".repeat(101) + "]".repeat(101)).getBytes(StandardCharsets.UTF_8)));

    assertTrue(notJson.getMessage().contains("not JSON"), notJson.getMessage());
    assertTrue(deep.getMessage().contains("deeper than 100 levels"), deep.getMessage());
  }

  private static byte[] event(String body, boolean base64) throws Exception {
    return JSON.writeValueAsBytes(
        JSON.createObjectNode()
            .put("rawPath", "/")
            .put("body", body)
            .put("isBase64Encoded", base64)
            .set(
                "requestContext",
                JSON.createObjectNode()
                    .set("http", JSON.createObjectNode().put("method", "POST"))));
  }
}
