package dev.statekit.stream.state;

import dev.statekit.stream.state.dynamodb.DynamoDbStateTable;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

@ExtendWith(RealServers.class)
class DynamoDbStateBackendIT extends StateBackendContract {
  private StateTable table;

  @BeforeEach
  void connect(DynamoDbClient dynamoDb, TestTable testTable) {
    table = new DynamoDbStateTable(dynamoDb, testTable.name());
  }

  @Override
  StateTable table() {
    return table;
  }
}
