package dev.statekit.stream.lambda;

import dev.statekit.aws.dynamodb.DynamoDbTableSink;
import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The refused-output cases against the servers: keys and splits in Dynoxide, the outputs to an
 * ElasticMQ queue (which the sink refuses a message past 256 KiB for), the refused ones set aside
 * in a Dynoxide table through {@link DynamoDbTableSink}.
 */
@ExtendWith(RealServers.class)
class RefusedOutputsIT extends RefusedOutputsContract {
  private DynamoDbClient dynamoDb;
  private SqsClient sqs;
  private String table;
  private String queueUrl;
  private BatchStore store;
  private final List<String> received = new ArrayList<>();

  @BeforeEach
  void connect(DynamoDbClient dynamoClient, SqsClient sqsClient, TestTable testTable) {
    this.dynamoDb = dynamoClient;
    this.sqs = sqsClient;
    this.table = testTable.name();
    this.store = new DynamoDbBatchStore(dynamoDb, table);
    this.queueUrl = sqs.createQueue(b -> b.queueName("outputs-" + UUID.randomUUID())).queueUrl();
  }

  @Override
  BatchStore store() {
    return store;
  }

  @Override
  EgressSink output() {
    return new SqsEgressSink(sqs, queueUrl);
  }

  @Override
  List<String> delivered() {
    while (true) {
      List<Message> batch =
          sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(0))
              .messages();
      if (batch.isEmpty()) {
        return List.copyOf(received);
      }
      for (Message message : batch) {
        received.add(message.body());
        sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(message.receiptHandle()));
      }
    }
  }

  @Override
  EgressSink refusedSink() {
    return DynamoDbTableSink.onApplicationTable(dynamoDb, table);
  }

  @Override
  List<RefusedOutput> setAside() {
    // One table for the class: each test's pipeline has its own name, in its records' sources.
    return StoredResults.texts(dynamoDb, table, RefusedOutput.EGRESS.asString()).values().stream()
        .map(text -> RefusedOutput.TYPE.deserialize(text.getBytes(StandardCharsets.UTF_8)))
        .filter(output -> output.source().contains("/" + name + "/"))
        .toList();
  }
}
