package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.StateKitException.Reason;
import dev.statekit.aws.ApplicationTable;
import dev.statekit.stream.lambda.BatchStore.KeyWrite;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import dev.statekit.stream.state.StateStoreException;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

@ExtendWith(RealServers.class)
class DynamoDbBatchStoreIT extends BatchStoreContract {
  private DynamoDbClient dynamoDb;
  private String table;
  private BatchStore store;

  @BeforeEach
  void connect(DynamoDbClient dynamoDb, TestTable table) {
    this.dynamoDb = dynamoDb;
    this.table = table.name();
    store = new DynamoDbBatchStore(dynamoDb, table.name());
  }

  @Override
  BatchStore store() {
    return store;
  }

  @Test
  void theExpiryIsANumberForTtlOnlyWhileTheKeyHasOne() {
    store.writeKeys(
        "ttl", "op", List.of(new KeyWrite("k", 0, null, new byte[] {1}, 1_900_000_000L)));
    Map<String, AttributeValue> item = item("pipe#ttl#op#k");
    assertEquals("1900000000", item.get(ApplicationTable.TTL_ATTRIBUTE).n());

    store.writeKeys("ttl", "op", List.of(new KeyWrite("k", 1, new byte[] {2}, new byte[] {1}, 0)));
    item = item("pipe#ttl#op#k");
    assertNull(item.get(ApplicationTable.TTL_ATTRIBUTE).n(), "DynamoDB's TTL skips a non-number");
    assertEquals(2, store.readKeys("ttl", "op", List.of("k")).get("k").version());
  }

  @Test
  void aMissingTableIsAnInvalidRequestThatSaysWhatToCreate() {
    BatchStore nowhere = new DynamoDbBatchStore(dynamoDb, table + "-missing");
    StateStoreException e =
        assertThrows(
            StateStoreException.class,
            () -> nowhere.writeKeys("p", "op", List.of(new KeyWrite("k", 0, null, null, 0))));
    assertEquals(Reason.INVALID_REQUEST, e.reason());
    assertTrue(e.getMessage().contains(table + "-missing"), e.getMessage());
    assertEquals(
        Reason.INVALID_REQUEST,
        assertThrows(StateStoreException.class, () -> nowhere.readSplits("p")).reason());
  }

  private Map<String, AttributeValue> item(String pk) {
    return dynamoDb
        .getItem(
            b ->
                b.tableName(table)
                    .consistentRead(true)
                    .key(
                        Map.of(
                            ApplicationTable.PARTITION_KEY,
                            AttributeValue.fromS(pk),
                            ApplicationTable.SORT_KEY,
                            AttributeValue.fromS(DynamoDbBatchStore.KEY_SORT_KEY))))
        .item();
  }
}
