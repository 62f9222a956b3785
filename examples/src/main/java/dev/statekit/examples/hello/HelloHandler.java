package dev.statekit.examples.hello;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.handlers.Variables;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Lambda handler for {@link Greetings}: takes {@code {"name": "..."}} and answers {@code
 * {"greeting": "...", "timesGreeted": n}}. The table is named by {@code STATEKIT_TABLE}.
 */
public final class HelloHandler implements RequestStreamHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Greetings greetings;

  /** Lambda's constructor: wiring from the environment, built once per execution environment. */
  public HelloHandler() {
    this(Variables.fromEnvironment());
  }

  /** Wiring from {@code variables}: {@code STATEKIT_TABLE} and the SDK's configuration. */
  public HelloHandler(Variables variables) {
    this(
        variables.aws().dynamoDbClient(),
        variables.required("STATEKIT_TABLE", "the application's DynamoDB table"));
  }

  /** For tests and the local runner: the given client and table. */
  public HelloHandler(DynamoDbClient dynamoDb, String tableName) {
    this.greetings = new Greetings(dynamoDb, tableName);
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    String name;
    try {
      JsonNode request = JSON.readTree(input);
      JsonNode nameNode = request == null ? null : request.get("name");
      if (nameNode == null || !nameNode.isTextual()) {
        throw new IllegalArgumentException(
            "Expected a JSON object with a string field \"name\", e.g. {\"name\": \"Ada\"}");
      }
      name = nameNode.asText();
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "The payload is not JSON (" + e.getOriginalMessage() + "); send {\"name\": \"Ada\"}", e);
    }
    JSON.writeValue(output, greetings.greet(name));
  }
}
