package dev.statekit.benchmarks.runtime;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.internal.CostMeter;
import dev.statekit.testservers.AwsClients;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The servers of a cost run — Dynoxide and ElasticMQ, started by the test servers (or the endpoints
 * in {@code STATEKIT_DYNAMODB_ENDPOINT} / {@code STATEKIT_SQS_ENDPOINT}) — with clients that report
 * every request to one {@link CostMeter}, a fresh table and fresh FIFO queues.
 */
final class CostBench {
  /** The delay each request gets, as between Lambda and the services in one region. */
  static final long NETWORK_MILLIS = 10;

  final CostMeter meter = new CostMeter();
  private final NetworkDelay network = new NetworkDelay(NETWORK_MILLIS);
  final DynamoDbClient dynamoDb;
  final SqsClient sqs;
  final String table = "runtime-cost-" + UUID.randomUUID();

  CostBench() {
    // As template.yaml sets for the runtime's functions: keep a connection per parallel request
    // alive between batches instead of the JDK's 5 (must be set before the first connection).
    System.setProperty("http.maxConnections", "100");
    dynamoDb = AwsClients.dynamoDb(meter, network);
    sqs = AwsClients.sqs(meter, network);
    ApplicationTable.createIfAbsent(dynamoDb, table);
  }

  String standardQueue(String name) {
    String queueName = name + "-" + UUID.randomUUID().toString().substring(0, 8);
    return sqs.createQueue(
            b ->
                b.queueName(queueName)
                    .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "30")))
        .queueUrl();
  }

  String fifoQueue(String name) {
    String queueName = name + "-" + UUID.randomUUID().toString().substring(0, 8) + ".fifo";
    return sqs.createQueue(
            b ->
                b.queueName(queueName)
                    .attributes(
                        Map.of(
                            QueueAttributeName.FIFO_QUEUE, "true",
                            QueueAttributeName.VISIBILITY_TIMEOUT, "30")))
        .queueUrl();
  }
}
