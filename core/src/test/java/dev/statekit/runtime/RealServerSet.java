package dev.statekit.runtime;

import dev.statekit.runtime.store.DynamoDbFunctionStore;
import dev.statekit.runtime.store.FunctionStore;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/** DynamoDB (Dynoxide) and SQS (ElasticMQ) from the test servers; queue visibility is real time. */
final class RealServerSet implements Servers {
  static final int VISIBILITY_SECONDS = 1;

  private final SqsClient sqs;
  private final FunctionStore store;

  RealServerSet(DynamoDbClient dynamoDb, SqsClient sqs, String table) {
    this.sqs = sqs;
    this.store = new DynamoDbFunctionStore(dynamoDb, table);
  }

  @Override
  public FunctionStore store() {
    return store;
  }

  @Override
  public QueueSource newQueue(String name) {
    return new SqsQueueSource(sqs, name, VISIBILITY_SECONDS);
  }

  @Override
  public void waitForVisibility() {
    try {
      Thread.sleep(VISIBILITY_SECONDS * 1000L + 200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
