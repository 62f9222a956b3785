package dev.statekit.runtime;

import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

@ExtendWith(RealServers.class)
class QueueBatchIT extends QueueBatchContract {
  private Servers servers;

  @BeforeEach
  void connect(DynamoDbClient dynamoDb, SqsClient sqs, TestTable table) {
    servers = new RealServerSet(dynamoDb, sqs, table.name());
  }

  @Override
  Servers servers() {
    return servers;
  }
}
