package dev.statekit.examples.hello;

import dev.statekit.aws.ApplicationTable;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/** Greets a name and counts, in DynamoDB, how often that name was greeted. */
public final class Greetings {
  private final DynamoDbClient dynamoDb;
  private final String tableName;

  /** Greets against the given table. */
  public Greetings(DynamoDbClient dynamoDb, String tableName) {
    this.dynamoDb = dynamoDb;
    this.tableName = tableName;
  }

  /**
   * Counts one more greeting for {@code name} and returns the greeting.
   *
   * @throws IllegalArgumentException if the name is blank or longer than 256 characters
   */
  public Greeting greet(String name) {
    if (name == null || name.isBlank() || name.length() > 256) {
      throw new IllegalArgumentException(
          "name must be 1 to 256 characters, got "
              + (name == null ? "none" : name.length() + " characters"));
    }
    // One atomic ADD: concurrent greetings never lose a count and no read is needed first.
    Map<String, AttributeValue> updated =
        dynamoDb
            .updateItem(
                b ->
                    b.tableName(tableName)
                        .key(
                            Map.of(
                                ApplicationTable.PARTITION_KEY,
                                AttributeValue.fromS("hello#" + name),
                                ApplicationTable.SORT_KEY,
                                AttributeValue.fromS("count")))
                        .updateExpression("ADD greetings :one")
                        .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1")))
                        .returnValues(ReturnValue.UPDATED_NEW))
            .attributes();
    long times = Long.parseLong(updated.get("greetings").n());
    return new Greeting("Hello, " + name + "!", times);
  }

  /**
   * A greeting and how many times the name has been greeted, this one included.
   *
   * @param greeting the text
   * @param timesGreeted the count so far
   */
  public record Greeting(String greeting, long timesGreeted) {}
}
