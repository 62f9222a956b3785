package dev.statekit.local.emulation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.testservers.RealServers;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@link InvalidBatchAnswerTest}'s case for the servers' poller, on ElasticMQ: with {@code
 * ReportBatchItemFailures}, a batch answered with what is not JSON fails whole, as on Lambda, and
 * every message stays on the queue. The poller deleted both.
 */
@ExtendWith(RealServers.class)
class InvalidBatchAnswerIT {
  @Test
  void theServersPollerKeepsABatchWhoseAnswerIsNotJson(SqsClient sqs) {
    String name = "invalid-answer-" + UUID.randomUUID().toString().substring(0, 8);
    String url = sqs.createQueue(b -> b.queueName(name)).queueUrl();
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("one"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("two"));
    List<Message> batch =
        sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
            .messages();
    assertEquals(2, batch.size(), "premise: both messages received");
    SqsPoller poller =
        EmulatedEvents.sqsPoller(sqs, url, name, 10, 0, event -> InvalidBatchAnswerTest.TRUNCATED);

    poller.process(batch);

    Map<QueueAttributeName, String> counts =
        sqs.getQueueAttributes(
                b ->
                    b.queueUrl(url)
                        .attributeNames(
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
            .attributes();
    int left =
        Integer.parseInt(counts.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
            + Integer.parseInt(
                counts.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    assertEquals(
        2, left, "an answer that is not JSON fails the whole batch on Lambda: nothing is deleted");
  }
}
