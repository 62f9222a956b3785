package dev.statekit.stream.lambda;

import dev.statekit.egress.DynamoDbTableSink;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.state.dynamodb.DynamoDbBatchStore;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Batches given up on, against Dynoxide: the attempts as their items keep them. */
@ExtendWith(RealServers.class)
class GivenUpWindowsIT extends GivenUpWindowsContract {
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
    return StoredResults.texts(dynamoDb, table, "test/given-up");
  }
}
