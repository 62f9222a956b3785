package dev.statekit.benchmarks.coldstart;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.AwsConfig;
import dev.statekit.testservers.AwsClients;
import dev.statekit.testservers.LocalServers;
import dev.statekit.testservers.TestStreams;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * A fresh table and fresh queues for each child JVM on the embedded servers (Dynoxide, ElasticMQ),
 * so no run finds the state an earlier one left (the fraud check's pipeline state included), and
 * the environment the example application's handler reads, as template.yaml sets it. The Kinesis
 * fixture's stream exists on kinesalite, for the shard listing of the first Kinesis batch.
 */
final class AppResources implements AutoCloseable {
  /** The queue the SQS fixture's records come from (its eventSourceARN), shared by the runs. */
  static final String INGRESS = "statekit-IngressQueue";

  /** The stream the Kinesis fixture's records come from. */
  static final String STREAM = "statekit-TransactionsStream";

  private final DynamoDbClient dynamoDb = AwsClients.dynamoDb();
  private final SqsClient sqs = AwsClients.sqs();
  private final KinesisClient kinesis = AwsClients.kinesis();
  private int created;

  AppResources() throws InterruptedException {
    if (!kinesis.listStreams().streamNames().contains(STREAM)) {
      TestStreams.create(kinesis, STREAM, 1);
    }
  }

  /** The environment of a child whose handler finds resources of its own. */
  Map<String, String> fresh() {
    String prefix = "cold-" + (++created) + "-" + Long.toString(System.nanoTime(), 36);
    ApplicationTable.createIfAbsent(dynamoDb, prefix + "-table");
    Map<String, String> env = new HashMap<>();
    env.put("AWS_REGION", "us-east-1");
    env.put("STATEKIT_APPLICATION", "dev.statekit.examples.ExampleApp");
    env.put(AwsConfig.DYNAMODB_ENDPOINT, LocalServers.dynamoDb().toString());
    env.put(AwsConfig.SQS_ENDPOINT, LocalServers.sqs().toString());
    env.put(AwsConfig.KINESIS_ENDPOINT, LocalServers.kinesis().toString());
    env.put("STATEKIT_TABLE", prefix + "-table");
    // The SQS fixture's records come from this queue: the entry point routes that queue only.
    env.put("STATEKIT_QUEUE_URL", fifo(INGRESS));
    env.put("STATEKIT_DEAD_LETTER_QUEUE_URL", fifo(prefix + "-dead"));
    env.put(
        "STATEKIT_WAKE_UP_QUEUE_URL",
        sqs.createQueue(b -> b.queueName(prefix + "-wake-ups")).queueUrl());
    env.put("GREETS_QUEUE_URL", sqs.createQueue(b -> b.queueName(prefix + "-greets")).queueUrl());
    env.put("ORDERS_QUEUE_URL", sqs.createQueue(b -> b.queueName(prefix + "-orders")).queueUrl());
    env.put("TRANSACTIONS_STREAM", STREAM);
    env.put("FRAUD_IDLE_SECONDS", "60");
    env.put("STATEKIT_BATCH_TIMEOUT_SECONDS", "30");
    // The rule of events/schedule-tick.json: AppFunction refuses scheduled events of any other.
    env.put("STATEKIT_SCHEDULE_RULE", "statekit-tick");
    return env;
  }

  private String fifo(String name) {
    Map<QueueAttributeName, String> attributes = new HashMap<>();
    attributes.put(QueueAttributeName.FIFO_QUEUE, "true");
    attributes.put(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "false");
    return sqs.createQueue(b -> b.queueName(name + ".fifo").attributes(attributes)).queueUrl();
  }

  @Override
  public void close() {
    dynamoDb.close();
    sqs.close();
    kinesis.close();
  }
}
