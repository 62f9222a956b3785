package dev.statekit.stream.state;

import dev.statekit.stream.state.dynamodb.DynamoDbCheckpointStore;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

@ExtendWith(RealServers.class)
class DynamoDbCheckpointStoreIT extends CheckpointStoreContract {
  private CheckpointStore store;

  @BeforeEach
  void connect(DynamoDbClient dynamoDb, TestTable testTable) {
    store = new DynamoDbCheckpointStore(dynamoDb, testTable.name());
  }

  @Override
  CheckpointStore store() {
    return store;
  }
}
