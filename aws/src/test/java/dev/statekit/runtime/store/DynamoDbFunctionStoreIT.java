package dev.statekit.runtime.store;

import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

@ExtendWith(RealServers.class)
class DynamoDbFunctionStoreIT extends FunctionStoreContract {
  private FunctionStore store;

  @BeforeEach
  void connect(DynamoDbClient dynamoDb, TestTable table) {
    store = new DynamoDbFunctionStore(dynamoDb, table.name());
  }

  @Override
  FunctionStore store() {
    return store;
  }
}
