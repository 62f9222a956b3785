package dev.statekit.stream.lambda;

import dev.statekit.egress.DynamoDbTableSink;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.state.dynamodb.DynamoDbBatchStore;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The fault scenario against Dynoxide: state, splits and timers in one table, the results in the
 * same table through {@link DynamoDbTableSink} (one item per record id).
 */
@ExtendWith(RealServers.class)
class WindowedFaultsIT extends WindowedFaultsContract {
  private DynamoDbClient dynamoDb;
  private String table;

  @BeforeEach
  void connect(DynamoDbClient client, TestTable testTable) {
    this.dynamoDb = client;
    this.table = testTable.name();
  }

  @Override
  BatchStore store() {
    return new DynamoDbBatchStore(dynamoDb, table);
  }

  @Override
  EgressSink results() {
    return DynamoDbTableSink.onApplicationTable(dynamoDb, table);
  }

  @Override
  Map<String, String> stored() {
    Map<String, String> stored = new TreeMap<>();
    dynamoDb
        .queryPaginator(
            b ->
                b.tableName(table)
                    .consistentRead(true)
                    .keyConditionExpression("pk = :p")
                    .expressionAttributeValues(
                        Map.of(":p", AttributeValue.fromS("egress#test/counts"))))
        .items()
        .forEach(item -> stored.put(item.get("sk").s(), item.get("text").s()));
    return stored;
  }

  @Override
  int recordsPerShard() {
    return 1000;
  }
}
