package dev.statekit.runtime;

import dev.statekit.aws.sqs.SqsMessageBus;
import dev.statekit.bus.MessageBus;
import dev.statekit.bus.QueueMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SqsException;

/** A {@link QueueSource} over a real SQS FIFO queue, created fresh with the given visibility. */
final class SqsQueueSource implements QueueSource {
  private final SqsClient sqs;
  private final String url;
  private final SqsMessageBus bus;

  /**
   * A fresh queue; with {@code redriveToUrl}, its redrive policy moves a message there once
   * received {@code maxReceiveCount} times.
   */
  SqsQueueSource(
      SqsClient sqs, String name, int visibilitySeconds, String redriveToUrl, int maxReceiveCount) {
    this(sqs, name, visibilitySeconds, redriveToUrl, maxReceiveCount, true);
  }

  /** A fresh standard queue (no FIFO), with the given visibility. */
  static SqsQueueSource standard(SqsClient sqs, String name, int visibilitySeconds) {
    return new SqsQueueSource(sqs, name, visibilitySeconds, null, 0, false);
  }

  private SqsQueueSource(
      SqsClient sqs,
      String name,
      int visibilitySeconds,
      String redriveToUrl,
      int maxReceiveCount,
      boolean fifo) {
    this.sqs = sqs;
    String queueName =
        name + "-" + UUID.randomUUID().toString().substring(0, 8) + (fifo ? ".fifo" : "");
    Map<QueueAttributeName, String> attributes = new HashMap<>();
    if (fifo) {
      attributes.put(QueueAttributeName.FIFO_QUEUE, "true");
    }
    attributes.put(QueueAttributeName.VISIBILITY_TIMEOUT, Integer.toString(visibilitySeconds));
    if (redriveToUrl != null) {
      String arn =
          sqs.getQueueAttributes(
                  b -> b.queueUrl(redriveToUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
              .attributes()
              .get(QueueAttributeName.QUEUE_ARN);
      attributes.put(
          QueueAttributeName.REDRIVE_POLICY,
          "{\"deadLetterTargetArn\":\""
              + arn
              + "\",\"maxReceiveCount\":\""
              + maxReceiveCount
              + "\"}");
    }
    this.url = sqs.createQueue(b -> b.queueName(queueName).attributes(attributes)).queueUrl();
    this.bus = new SqsMessageBus(sqs, url);
  }

  String url() {
    return url;
  }

  @Override
  public MessageBus bus() {
    return bus;
  }

  @Override
  public List<Received> receive(int max) {
    List<Received> received = new ArrayList<>();
    for (Message m :
        sqs.receiveMessage(
                b ->
                    b.queueUrl(url)
                        .maxNumberOfMessages(max)
                        .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
            .messages()) {
      Map<MessageSystemAttributeName, String> a = m.attributes();
      received.add(
          new Received(
              m.receiptHandle(),
              new QueueMessage(
                  m.messageId(),
                  m.body(),
                  a.get(MessageSystemAttributeName.MESSAGE_GROUP_ID),
                  a.get(MessageSystemAttributeName.SEQUENCE_NUMBER),
                  Integer.parseInt(a.get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)))));
    }
    return received;
  }

  @Override
  public boolean delete(String receiptHandle) {
    try {
      sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(receiptHandle));
      return true;
    } catch (SqsException stale) {
      return false;
    }
  }

  /** Reads every message by receiving with a zero visibility timeout (nothing is deleted). */
  @Override
  public List<Map.Entry<String, Map<String, String>>> peekAll() {
    Map<String, Map.Entry<String, Map<String, String>>> seen = new HashMap<>();
    for (int round = 0; round < 20; round++) {
      List<Message> batch =
          sqs.receiveMessage(
                  b ->
                      b.queueUrl(url)
                          .maxNumberOfMessages(10)
                          .visibilityTimeout(0)
                          .messageAttributeNames("All"))
              .messages();
      for (Message m : batch) {
        Map<String, String> attributes = new HashMap<>();
        m.messageAttributes().forEach((k, v) -> attributes.put(k, v.stringValue()));
        seen.putIfAbsent(m.messageId(), Map.entry(m.body(), attributes));
      }
    }
    return new ArrayList<>(seen.values());
  }
}
