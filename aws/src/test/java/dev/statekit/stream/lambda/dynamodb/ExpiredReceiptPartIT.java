package dev.statekit.stream.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Invariant 3 (nothing stuck). A receipt past one item is kept in parts ({@code done}, {@code
 * done#1}, ...), every part with the receipt's TTL. DynamoDB's TTL deletes expired items one by
 * one, up to days late and in no order, so for a while after the retention a receipt's own item can
 * still be there while a part of it is already gone. {@code ReceiptItems.outputs} says it throws
 * only "if a part is missing while the receipt has not expired", but nothing looks at the expiry:
 * the read throws INVALID_REQUEST ("the table was changed by something else").
 *
 * <p>Schedule: a message fanned out over many keys is applied; its receipt (400 KB, two parts) is
 * written with the retention's TTL; a key keeps the message as pending (its process died before it
 * dropped it). The key is next touched by a new execution environment after the retention, when TTL
 * has deleted {@code done#1} but not yet {@code done}: that batch reads the receipts of the key's
 * unknown pending messages (BatchFlow.unknownPending), the read throws, and every batch touching
 * that key fails until TTL gets to the receipt's own item, up to days later (messages redriven to
 * the dead-letter queue unapplied meanwhile).
 */
@ExtendWith(RealServers.class)
class ExpiredReceiptPartIT {

  @Test
  void anExpiredReceiptWhosePartTtlDeletedFirstIsNoReceiptNotAFailure(
      DynamoDbClient dynamoDb, TestTable table) {
    DynamoDbBatchStore store = new DynamoDbBatchStore(dynamoDb, table.name());
    long expiredAnHourAgo = System.currentTimeMillis() / 1000 - 3600;
    store.writeReceipts("fanout", "q", Map.of("message-1", new byte[400_000]), expiredAnHourAgo);

    // What TTL does, in the order it chose: the part first (every item of the receipt but its own).
    AttributeValue pk = AttributeValue.fromS("pipe#fanout#rcpt#q#message-1");
    var items =
        dynamoDb
            .query(
                b ->
                    b.tableName(table.name())
                        .keyConditionExpression("#pk = :pk")
                        .expressionAttributeNames(Map.of("#pk", ApplicationTable.PARTITION_KEY))
                        .expressionAttributeValues(Map.of(":pk", pk)))
            .items();
    assertEquals(2, items.size(), "the receipt and its one other part");
    for (var item : items) {
      AttributeValue sk = item.get(ApplicationTable.SORT_KEY);
      if (!sk.s().equals("done")) {
        dynamoDb.deleteItem(
            b ->
                b.tableName(table.name())
                    .key(
                        Map.of(ApplicationTable.PARTITION_KEY, pk, ApplicationTable.SORT_KEY, sk)));
      }
    }

    Map<String, byte[]> read =
        assertDoesNotThrow(
            () -> store.readReceipts("fanout", "q", List.of("message-1")),
            "an expired receipt half deleted by TTL");
    assertFalse(read.containsKey("message-1"), "an expired receipt read without its part");
  }
}
