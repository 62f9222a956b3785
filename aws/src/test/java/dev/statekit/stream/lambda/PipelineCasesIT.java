package dev.statekit.stream.lambda;

import dev.statekit.aws.dynamodb.DynamoDbTableSink;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The five cases against Dynoxide: keys, splits and timers in one table, results in the same table
 * through {@link DynamoDbTableSink}. The hot key runs for half an hour of traffic, in batches of
 * 100, rather than a day.
 */
@ExtendWith(RealServers.class)
class PipelineCasesIT extends PipelineCasesContract {
  private DynamoDbClient dynamoDb;
  private String table;
  private BatchStore store;

  @BeforeEach
  void connect(DynamoDbClient client, TestTable testTable) {
    this.dynamoDb = client;
    this.table = testTable.name();
    this.store = new DynamoDbBatchStore(dynamoDb, table);
  }

  @Override
  BatchStore store() {
    return store;
  }

  @Override
  EgressSink results() {
    return DynamoDbTableSink.onApplicationTable(dynamoDb, table);
  }

  @Override
  Map<String, String> stored() {
    // One table for the class: each test's pipeline has its own name, which starts its records'
    // ids.
    Map<String, String> mine = new java.util.TreeMap<>();
    StoredResults.texts(dynamoDb, table, "test/cases")
        .forEach(
            (id, text) -> {
              if (id.startsWith(name + "/")) {
                mine.put(id, text);
              }
            });
    return mine;
  }

  @Override
  int hotMinutes() {
    return 30;
  }

  @Override
  int hotBatch() {
    return 100;
  }
}
