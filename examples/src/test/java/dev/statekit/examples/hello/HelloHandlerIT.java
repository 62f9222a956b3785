package dev.statekit.examples.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

@ExtendWith(RealServers.class)
class HelloHandlerIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void countsGreetingsPerName(DynamoDbClient dynamoDb, TestTable table) throws IOException {
    HelloHandler handler = new HelloHandler(dynamoDb, table.name());

    assertEquals(1, invoke(handler, "{\"name\":\"Grace\"}").get("timesGreeted").asLong());
    JsonNode second = invoke(handler, "{\"name\":\"Grace\"}");

    assertEquals("Hello, Grace!", second.get("greeting").asText());
    assertEquals(2, second.get("timesGreeted").asLong());
    assertEquals(1, invoke(handler, "{\"name\":\"Alan\"}").get("timesGreeted").asLong());
  }

  @Test
  void answersTheFixtureEvent(DynamoDbClient dynamoDb, TestTable table) throws IOException {
    String event;
    try (var in = getClass().getResourceAsStream("/events/hello.json")) {
      event = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    JsonNode answer = invoke(new HelloHandler(dynamoDb, table.name()), event);

    assertEquals("Hello, Ada!", answer.get("greeting").asText());
  }

  @Test
  void refusesPayloadsWithoutAName(DynamoDbClient dynamoDb, TestTable table) {
    HelloHandler handler = new HelloHandler(dynamoDb, table.name());

    var notJson = assertThrows(IllegalArgumentException.class, () -> invoke(handler, "hi"));
    assertTrue(notJson.getMessage().contains("not JSON"), notJson.getMessage());
    var noName = assertThrows(IllegalArgumentException.class, () -> invoke(handler, "{}"));
    assertTrue(noName.getMessage().contains("\"name\""), noName.getMessage());
  }

  private static JsonNode invoke(HelloHandler handler, String payload) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(
        new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)), out, null);
    return JSON.readTree(out.toByteArray());
  }
}
