package dev.statekit.aws;

import dev.statekit.runtime.store.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The shape of an application's DynamoDB table, as {@code template.yaml} declares it: string
 * partition key {@code pk}, string sort key {@code sk}, on-demand billing, and TTL on {@code
 * expires_at} (epoch seconds). Item families share the table, told apart by key prefixes.
 */
public final class ApplicationTable {
  /** The partition key attribute. */
  public static final String PARTITION_KEY = TableKeys.PARTITION_KEY;

  /** The sort key attribute. */
  public static final String SORT_KEY = TableKeys.SORT_KEY;

  /** The attribute DynamoDB's TTL deletes expired items by, in epoch seconds. */
  public static final String TTL_ATTRIBUTE = TableKeys.TTL_ATTRIBUTE;

  private ApplicationTable() {}

  /**
   * Creates the table with TTL enabled and waits until it is active. Does nothing if it exists.
   *
   * @return true if the table was created, false if it already existed
   */
  public static boolean createIfAbsent(DynamoDbClient dynamoDb, String tableName) {
    try {
      dynamoDb.createTable(
          b ->
              b.tableName(tableName)
                  .billingMode(BillingMode.PAY_PER_REQUEST)
                  .attributeDefinitions(stringAttribute(PARTITION_KEY), stringAttribute(SORT_KEY))
                  .keySchema(key(PARTITION_KEY, KeyType.HASH), key(SORT_KEY, KeyType.RANGE)));
    } catch (ResourceInUseException exists) {
      return false;
    }
    dynamoDb.waiter().waitUntilTableExists(b -> b.tableName(tableName));
    dynamoDb.updateTimeToLive(
        b ->
            b.tableName(tableName)
                .timeToLiveSpecification(s -> s.attributeName(TTL_ATTRIBUTE).enabled(true)));
    return true;
  }

  private static AttributeDefinition stringAttribute(String name) {
    return AttributeDefinition.builder()
        .attributeName(name)
        .attributeType(ScalarAttributeType.S)
        .build();
  }

  private static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }
}
