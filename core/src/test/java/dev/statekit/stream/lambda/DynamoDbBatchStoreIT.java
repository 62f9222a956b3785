package dev.statekit.stream.lambda;

import dev.statekit.stream.state.dynamodb.DynamoDbBatchStore;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

@ExtendWith(RealServers.class)
class DynamoDbBatchStoreIT extends BatchStoreContract {
  private BatchStore store;

  @BeforeEach
  void connect(DynamoDbClient dynamoDb, TestTable table) {
    store = new DynamoDbBatchStore(dynamoDb, table.name());
  }

  @Override
  BatchStore store() {
    return store;
  }
}
