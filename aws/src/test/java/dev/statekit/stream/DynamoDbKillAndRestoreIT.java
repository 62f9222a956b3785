package dev.statekit.stream;

import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateTable;
import dev.statekit.stream.state.dynamodb.DynamoDbCheckpointStore;
import dev.statekit.stream.state.dynamodb.DynamoDbStateTable;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The kill-and-restore runs with state and checkpoints in DynamoDB and a small cache. */
@ExtendWith(RealServers.class)
class DynamoDbKillAndRestoreIT extends KillAndRestoreContract {
  private DynamoDbClient dynamoDb;
  private String tableName;

  @BeforeEach
  void connect(DynamoDbClient dynamoDb, TestTable table) {
    this.dynamoDb = dynamoDb;
    this.tableName = table.name();
  }

  @Override
  StateTable table() {
    return new DynamoDbStateTable(dynamoDb, tableName);
  }

  @Override
  CheckpointStore checkpointStore() {
    return new DynamoDbCheckpointStore(dynamoDb, tableName);
  }

  @Override
  int maxCachedKeys() {
    return 4;
  }
}
