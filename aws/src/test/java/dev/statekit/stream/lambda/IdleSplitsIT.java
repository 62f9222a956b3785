package dev.statekit.stream.lambda;

import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Idle shards against Dynoxide, the results in the table through {@link DynamoDbTableSink}. */
@ExtendWith(RealServers.class)
class IdleSplitsIT extends IdleSplitsContract {
  private PipelineParts parts;

  @BeforeEach
  void connect(DynamoDbClient client, TestTable table) {
    parts = PipelineParts.onTable(client, table.name(), "test/idle");
  }

  @Override
  PipelineParts parts() {
    return parts;
  }
}
