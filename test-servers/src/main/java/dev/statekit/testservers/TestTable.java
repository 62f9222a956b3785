package dev.statekit.testservers;

import dev.statekit.aws.ApplicationTable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A table created for one test class, shaped like StateKit's application table (see {@link
 * ApplicationTable}).
 *
 * @param name the table's name, unique to this test run
 */
public record TestTable(String name) {
  static TestTable create(DynamoDbClient dynamoDb, String name) {
    ApplicationTable.createIfAbsent(dynamoDb, name);
    return new TestTable(name);
  }
}
