package dev.statekit.stream.lambda;

import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The fault scenario against Dynoxide: state, splits and timers in one table, the results in the
 * same table through {@code DynamoDbTableSink} (one item per record id).
 */
@ExtendWith(RealServers.class)
class WindowedFaultsIT extends WindowedFaultsContract {
  private PipelineParts parts;

  @BeforeEach
  void connect(DynamoDbClient client, TestTable table) {
    parts = PipelineParts.onTable(client, table.name(), "test/counts");
  }

  @Override
  PipelineParts parts() {
    return parts;
  }

  @Override
  int recordsPerShard() {
    return 1000;
  }
}
