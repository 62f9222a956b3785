package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.egress.EgressRecord;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.QueueRecord;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * A message applied on every receive by an invocation that then died reaches the dead-letter queue
 * applied. ElasticMQ, as SQS, moves it there under its message id; read from there by the
 * pipeline's {@link BatchPipeline#deadLetterConsumer}, it is known by its receipt and applied once.
 * (SQS's own redrive, {@code StartMessageMoveTask}, would give it a new id.) Keys and receipts in
 * Dynoxide.
 */
@ExtendWith(RealServers.class)
class DeadLettersIT {
  private final List<String> delivered = new ArrayList<>();
  private final AtomicBoolean dieAfterReceipts = new AtomicBoolean();

  private BatchPipeline pipeline(DynamoDbClient dynamoDb, String table) {
    Pipeline counts =
        DeferredFixture.counts(
            records -> records.stream().map(EgressRecord::textOrBase64).forEach(delivered::add));
    return BatchPipeline.builder("dlq-" + UUID.randomUUID().toString().substring(0, 8), counts)
        .store(new DynamoDbBatchStore(dynamoDb, table))
        .faultHook(
            (step, detail) -> {
              if (step == BatchFaultHook.Step.DELIVERED && dieAfterReceipts.get()) {
                throw new IllegalStateException("the invocation dies after its receipts");
              }
            })
        .build();
  }

  private static String createQueue(SqsClient sqs, String name, Map<QueueAttributeName, String> a) {
    return sqs.createQueue(b -> b.queueName(name).attributes(a)).queueUrl();
  }

  /** One receive of {@code url}, as Lambda's event source mapping hands it over. */
  private static List<QueueRecord> receive(SqsClient sqs, String url, String queueName) {
    List<QueueRecord> records = new ArrayList<>();
    for (Message m :
        sqs.receiveMessage(
                b ->
                    b.queueUrl(url)
                        .maxNumberOfMessages(10)
                        .visibilityTimeout(0)
                        .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
            .messages()) {
      Map<String, String> attributes = new HashMap<>();
      m.attributes().forEach((name, value) -> attributes.put(name.toString(), value));
      records.add(new QueueRecord(queueName, m.messageId(), m.body(), attributes, Map.of()));
    }
    return records;
  }

  @Test
  void aDeadLetterAppliedBeforeIsAppliedOnceThroughTheDeadLetterConsumer(
      DynamoDbClient dynamoDb, SqsClient sqs, TestTable table) throws Exception {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String dlqName = "orders-dlq-" + suffix;
    String dlqUrl = createQueue(sqs, dlqName, Map.of());
    String dlqArn =
        sqs.getQueueAttributes(b -> b.queueUrl(dlqUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
            .attributes()
            .get(QueueAttributeName.QUEUE_ARN);
    String queueName = "orders-" + suffix;
    String queueUrl =
        createQueue(
            sqs,
            queueName,
            Map.of(
                QueueAttributeName.REDRIVE_POLICY,
                "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}"));
    BatchPipeline pipeline = pipeline(dynamoDb, table.name());
    String sent = sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("a")).messageId();

    dieAfterReceipts.set(true);
    for (int receive = 1; receive <= 2; receive++) {
      List<QueueRecord> received = receive(sqs, queueUrl, queueName);
      assertEquals(1, received.size(), "receive " + receive);
      assertThrows(IllegalStateException.class, () -> pipeline.queueConsumer().accept(received));
    }
    assertEquals(List.of(), receive(sqs, queueUrl, queueName), "the redrive policy moved it");
    dieAfterReceipts.set(false);

    List<QueueRecord> deadLetters = receive(sqs, dlqUrl, dlqName);
    assertEquals(1, deadLetters.size());
    assertEquals(sent, deadLetters.get(0).messageId(), "moved under its message id");
    delivered.clear();
    BatchOutcome outcome = pipeline.deadLetterConsumer(queueName).accept(deadLetters);

    assertEquals(List.of(), outcome.failedItemIds());
    assertEquals(List.of("a:1"), delivered, "its receipt's output, not a second count");
    String next = sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("a")).messageId();
    pipeline.queueConsumer().accept(receive(sqs, queueUrl, queueName));
    assertEquals(List.of("a:1", "a:2"), delivered, "the next message counts from one: " + next);
  }
}
