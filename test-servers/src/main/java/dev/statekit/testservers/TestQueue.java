package dev.statekit.testservers;

import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * An SQS FIFO queue created for one test class, with explicit deduplication ids (content-based
 * deduplication off), as StateKit's ingress queue is.
 *
 * @param name the queue's name, ending in {@code .fifo}
 * @param url the queue's URL
 */
public record TestQueue(String name, String url) {
  static TestQueue createFifo(SqsClient sqs, String baseName) {
    String name = baseName + ".fifo";
    String url =
        sqs.createQueue(
                b ->
                    b.queueName(name)
                        .attributes(
                            Map.of(
                                QueueAttributeName.FIFO_QUEUE, "true",
                                QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "false")))
            .queueUrl();
    return new TestQueue(name, url);
  }
}
