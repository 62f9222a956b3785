package dev.statekit.stream.lambda;

import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Copies and retries of a batch against Dynoxide: restart points and attempts as the items keep
 * them.
 */
@ExtendWith(RealServers.class)
class RetriedBatchesIT extends RetriedBatchesContract {
  private PipelineParts parts;

  @BeforeEach
  void connect(DynamoDbClient client, TestTable table) {
    parts = PipelineParts.onTable(client, table.name(), "test/copies");
  }

  @Override
  PipelineParts parts() {
    return parts;
  }
}
