package dev.statekit.stream.lambda;

import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Batches given up on, against Dynoxide: the attempts as their items keep them. */
@ExtendWith(RealServers.class)
class GivenUpWindowsIT extends GivenUpWindowsContract {
  private PipelineParts parts;

  @BeforeEach
  void connect(DynamoDbClient client, TestTable table) {
    parts = PipelineParts.onTable(client, table.name(), "test/given-up");
  }

  @Override
  PipelineParts parts() {
    return parts;
  }
}
