package dev.statekit.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.aws.dynamodb.DynamoDbTableSink;
import dev.statekit.bus.QueueIds;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import dev.statekit.types.TypeName;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The table sink's digest key for a record id past DynamoDB's key, against the ways it could meet
 * another key: a table keyed by "id", a record whose id is the text of another's digest (apart, and
 * in one delivery), and a key attribute that is one the sink writes.
 */
@ExtendWith(RealServers.class)
class TableSinkLongIdsIT {

  /**
   * A table keyed by an attribute named "id" (the most common name for it) takes a record whose id
   * is past the 2,048-byte partition key: the sink kept the long id in an attribute of that name,
   * overwriting the digest key, and DynamoDB refused the delivery whole.
   */
  @Test
  void aTableKeyedByIdTakesARecordIdPastThePartitionKey(DynamoDbClient dynamoDb) {
    String table = "sink-id-" + UUID.randomUUID().toString().substring(0, 8);
    dynamoDb.createTable(
        b ->
            b.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    AttributeDefinition.builder()
                        .attributeName("id")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(
                    KeySchemaElement.builder().attributeName("id").keyType(KeyType.HASH).build()));
    DynamoDbTableSink sink = DynamoDbTableSink.keyedById(dynamoDb, table, "id");
    TypeName egress = TypeName.of("app", "out");
    String longId = "pipeline/1.0-window/" + "k".repeat(2_100) + "/0-100/0";

    sink.deliver(
        List.of(
            EgressSinksIT.text(egress, longId, "a window"),
            EgressSinksIT.text(egress, "short", "beside it")));

    var items = dynamoDb.scan(b -> b.tableName(table)).items();
    assertEquals(2, items.size(), "each record once: " + items.size());
    assertTrue(
        items.stream()
            .anyMatch(
                i ->
                    i.get("id").s().startsWith("sha256-") && i.get("record_id").s().equals(longId)),
        "the long id keyed by its digest, kept in record_id");
  }

  /** A key attribute the sink writes would be overwritten: refused when the sink is made. */
  @Test
  void aKeyAttributeTheSinkWritesIsRefused(DynamoDbClient dynamoDb) {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> DynamoDbTableSink.keyedById(dynamoDb, "any", "value"));
    assertTrue(e.getMessage().contains("'value' is one the sink writes"), e.getMessage());
  }

  /**
   * A record whose id is the text of a long id's digest, delivered after it, has an item of its
   * own: it took the long one's item, one record lost.
   */
  @Test
  void aRecordWhoseIdIsAnotherLongIdsDigestDoesNotShareItsItem(
      DynamoDbClient dynamoDb, TestTable table) {
    TypeName egress = TypeName.of("app", "dg-" + UUID.randomUUID().toString().substring(0, 8));
    DynamoDbTableSink sink = DynamoDbTableSink.onApplicationTable(dynamoDb, table.name());
    String longId = "pipeline/1.0-window/" + "k".repeat(1_100) + "/0-100/0";
    String digestText = "sha256-" + QueueIds.sha256(longId);

    sink.deliver(List.of(EgressSinksIT.text(egress, longId, "a window")));
    sink.deliver(List.of(EgressSinksIT.text(egress, digestText, "another record")));

    var items = EgressSinksIT.egressItems(dynamoDb, table, egress);
    assertEquals(
        2,
        items.size(),
        "two records, two items: "
            + items.stream().map(i -> i.get("sk").s() + "=" + i.get("text").s()).toList());
  }

  /** The same two records in one delivery: DynamoDB refused the BatchWriteItem whole. */
  @Test
  void aRecordWhoseIdIsAnotherLongIdsDigestInOneDelivery(DynamoDbClient dynamoDb, TestTable table) {
    TypeName egress = TypeName.of("app", "d1-" + UUID.randomUUID().toString().substring(0, 8));
    DynamoDbTableSink sink = DynamoDbTableSink.onApplicationTable(dynamoDb, table.name());
    String longId = "pipeline/1.0-window/" + "k".repeat(1_100) + "/0-100/0";
    String digestText = "sha256-" + QueueIds.sha256(longId);

    sink.deliver(
        List.of(
            EgressSinksIT.text(egress, longId, "a window"),
            EgressSinksIT.text(egress, digestText, "another record")));

    assertEquals(2, EgressSinksIT.egressItems(dynamoDb, table, egress).size());
  }
}
