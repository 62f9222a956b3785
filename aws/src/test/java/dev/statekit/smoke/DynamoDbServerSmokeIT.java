package dev.statekit.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** The DynamoDB API server behaves as the kit relies on: conditions, transactions, TTL. */
@ExtendWith(RealServers.class)
class DynamoDbServerSmokeIT {

  @Test
  void tableIsOnDemandWithStringKeys(DynamoDbClient dynamoDb, TestTable table) {
    var description = dynamoDb.describeTable(b -> b.tableName(table.name())).table();
    assertEquals(BillingMode.PAY_PER_REQUEST, description.billingModeSummary().billingMode());
    assertEquals(2, description.keySchema().size());
    assertEquals(ApplicationTable.PARTITION_KEY, description.keySchema().get(0).attributeName());
  }

  @Test
  void conditionalPutFailsWhenTheVersionMoved(DynamoDbClient dynamoDb, TestTable table) {
    dynamoDb.putItem(b -> b.tableName(table.name()).item(item("cond", "a", 1)));

    assertThrows(
        ConditionalCheckFailedException.class,
        () ->
            dynamoDb.putItem(
                b ->
                    b.tableName(table.name())
                        .item(item("cond", "a", 3))
                        .conditionExpression("version = :expected")
                        .expressionAttributeValues(Map.of(":expected", number(2)))));

    dynamoDb.putItem(
        b ->
            b.tableName(table.name())
                .item(item("cond", "a", 2))
                .conditionExpression("version = :expected")
                .expressionAttributeValues(Map.of(":expected", number(1))));
    assertEquals("2", read(dynamoDb, table, "cond", "a").get("version").n());
  }

  @Test
  void failedConditionCancelsTheWholeTransaction(DynamoDbClient dynamoDb, TestTable table) {
    dynamoDb.putItem(b -> b.tableName(table.name()).item(item("tx", "guard", 7)));

    TransactionCanceledException cancelled =
        assertThrows(
            TransactionCanceledException.class,
            () ->
                dynamoDb.transactWriteItems(
                    b ->
                        b.transactItems(
                            TransactWriteItem.builder()
                                .put(p -> p.tableName(table.name()).item(item("tx", "new", 1)))
                                .build(),
                            TransactWriteItem.builder()
                                .conditionCheck(
                                    c ->
                                        c.tableName(table.name())
                                            .key(key("tx", "guard"))
                                            .conditionExpression("version = :v")
                                            .expressionAttributeValues(Map.of(":v", number(8))))
                                .build())));

    assertEquals("ConditionalCheckFailed", cancelled.cancellationReasons().get(1).code());
    assertTrue(read(dynamoDb, table, "tx", "new").isEmpty(), "the first write was rolled back");
  }

  @Test
  void timeToLiveIsEnabledAndDescribed(DynamoDbClient dynamoDb, TestTable table) {
    var ttl = dynamoDb.describeTimeToLive(b -> b.tableName(table.name())).timeToLiveDescription();
    assertEquals(ApplicationTable.TTL_ATTRIBUTE, ttl.attributeName());
    assertFalse(ttl.timeToLiveStatus() == TimeToLiveStatus.DISABLED);
  }

  private static Map<String, AttributeValue> read(
      DynamoDbClient dynamoDb, TestTable table, String pk, String sk) {
    return dynamoDb
        .getItem(b -> b.tableName(table.name()).key(key(pk, sk)).consistentRead(true))
        .item();
  }

  private static Map<String, AttributeValue> key(String pk, String sk) {
    return Map.of(
        ApplicationTable.PARTITION_KEY,
        AttributeValue.fromS(pk),
        ApplicationTable.SORT_KEY,
        AttributeValue.fromS(sk));
  }

  private static Map<String, AttributeValue> item(String pk, String sk, long version) {
    return Map.of(
        ApplicationTable.PARTITION_KEY,
        AttributeValue.fromS(pk),
        ApplicationTable.SORT_KEY,
        AttributeValue.fromS(sk),
        "version",
        number(version));
  }

  private static AttributeValue number(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }
}
