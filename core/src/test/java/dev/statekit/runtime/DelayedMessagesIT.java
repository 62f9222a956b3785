package dev.statekit.runtime;

import dev.statekit.testservers.RealServers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

@ExtendWith(RealServers.class)
class DelayedMessagesIT extends DelayedMessagesContract {
  private Servers servers;

  @BeforeEach
  void connect(DynamoDbClient dynamoDb, SqsClient sqs) {
    servers = new RealServerSet(dynamoDb, sqs);
  }

  @Override
  Servers servers() {
    return servers;
  }
}
