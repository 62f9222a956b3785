package dev.statekit.testservers;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A table created for one test class, shaped like a StateKit application's table ({@code
 * template.yaml}'s {@code StateTable}): string partition key {@code pk}, string sort key {@code
 * sk}, on-demand billing, TTL on {@code expires_at}.
 *
 * <p>The shape is written out here rather than borrowed from StateKit's own code, so that this kit
 * depends on no StateKit module and every StateKit module's tests can use it; a test of the
 * DynamoDB adapters checks that both create the same table.
 *
 * @param name the table's name, unique to this test run
 */
public record TestTable(String name) {
  /** The partition key attribute. */
  public static final String PARTITION_KEY = "pk";

  /** The sort key attribute. */
  public static final String SORT_KEY = "sk";

  /** The attribute DynamoDB's TTL deletes expired items by, in epoch seconds. */
  public static final String TTL_ATTRIBUTE = "expires_at";

  /** Creates the table (or finds it) with TTL enabled, and waits until it is active. */
  public static TestTable create(DynamoDbClient dynamoDb, String name) {
    try {
      dynamoDb.createTable(
          b ->
              b.tableName(name)
                  .billingMode(BillingMode.PAY_PER_REQUEST)
                  .attributeDefinitions(string(PARTITION_KEY), string(SORT_KEY))
                  .keySchema(key(PARTITION_KEY, KeyType.HASH), key(SORT_KEY, KeyType.RANGE)));
    } catch (ResourceInUseException exists) {
      return new TestTable(name);
    }
    dynamoDb.waiter().waitUntilTableExists(b -> b.tableName(name));
    dynamoDb.updateTimeToLive(
        b ->
            b.tableName(name)
                .timeToLiveSpecification(s -> s.attributeName(TTL_ATTRIBUTE).enabled(true)));
    return new TestTable(name);
  }

  private static AttributeDefinition string(String attribute) {
    return AttributeDefinition.builder()
        .attributeName(attribute)
        .attributeType(ScalarAttributeType.S)
        .build();
  }

  private static KeySchemaElement key(String attribute, KeyType type) {
    return KeySchemaElement.builder().attributeName(attribute).keyType(type).build();
  }
}
