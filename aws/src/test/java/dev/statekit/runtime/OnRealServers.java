package dev.statekit.runtime;

import dev.statekit.testservers.RealServers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/** Mixed into a runtime contract: its tests run against Dynoxide and ElasticMQ. */
@ExtendWith(RealServers.class)
interface OnRealServers {
  @BeforeEach
  default void connect(DynamoDbClient dynamoDb, SqsClient sqs) {
    useServers(new RealServerSet(dynamoDb, sqs));
  }

  /** Implemented by {@link RuntimeFixture}. */
  void useServers(Servers servers);
}
