package dev.statekit.runtime;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.runtime.store.FunctionStore;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * DynamoDB (Dynoxide) and SQS (ElasticMQ) from the test servers, with a table of its own (timer
 * sweeps read the whole table, so tests must not share one); queue visibility is real time.
 */
final class RealServerSet implements Servers {
  static final int VISIBILITY_SECONDS = 1;

  private final DynamoDbClient dynamoDb;
  private final SqsClient sqs;
  private final String table;
  private final FunctionStore store;

  RealServerSet(DynamoDbClient dynamoDb, SqsClient sqs) {
    this.dynamoDb = dynamoDb;
    this.sqs = sqs;
    this.table = "runtime-" + UUID.randomUUID();
    ApplicationTable.createIfAbsent(dynamoDb, table);
    this.store = new DynamoDbFunctionStore(dynamoDb, table);
  }

  DynamoDbClient dynamoDb() {
    return dynamoDb;
  }

  String table() {
    return table;
  }

  @Override
  public FunctionStore store() {
    return store;
  }

  @Override
  public QueueSource newQueue(String name) {
    return new SqsQueueSource(sqs, name, VISIBILITY_SECONDS, null, 0);
  }

  @Override
  public QueueSource newQueue(String name, QueueSource deadLetters, int maxReceiveCount) {
    return new SqsQueueSource(
        sqs, name, VISIBILITY_SECONDS, ((SqsQueueSource) deadLetters).url(), maxReceiveCount);
  }

  @Override
  public QueueSource newStandardQueue(String name) {
    return SqsQueueSource.standard(sqs, name, VISIBILITY_SECONDS);
  }

  @Override
  public void sleep(java.time.Duration time) {
    try {
      Thread.sleep(time.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void expire(dev.statekit.function.Address address) {
    dynamoDb.deleteItem(
        b ->
            b.tableName(table)
                .key(
                    java.util.Map.of(
                        "pk", AttributeValue.fromS("fn#" + address),
                        "sk", AttributeValue.fromS("state"))));
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
