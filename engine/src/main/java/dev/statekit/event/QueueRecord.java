package dev.statekit.event;

import dev.statekit.bus.QueueMessage;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One message of an SQS event, as Lambda's event source mapping hands it over.
 *
 * @param queueName the queue it came from (the last part of {@code eventSourceARN})
 * @param messageId the queue's id of the message; a failure is answered with it
 * @param body the body
 * @param attributes the system attributes ({@code MessageGroupId}, {@code SequenceNumber}, {@code
 *     ApproximateReceiveCount}, {@code SentTimestamp}, ...)
 * @param messageAttributes the string values of the message attributes the sender set
 */
public record QueueRecord(
    String queueName,
    String messageId,
    String body,
    Map<String, String> attributes,
    Map<String, String> messageAttributes) {
  /** Checks and copies the parts. */
  public QueueRecord {
    Objects.requireNonNull(queueName, "queueName");
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(body, "body");
    attributes = Map.copyOf(attributes);
    messageAttributes = Map.copyOf(messageAttributes);
  }

  /** The FIFO message group; empty on a standard queue. */
  public Optional<String> groupId() {
    return Optional.ofNullable(attributes.get("MessageGroupId"));
  }

  /** The FIFO sequence number (decimal); empty on a standard queue. */
  public Optional<String> sequenceNumber() {
    return Optional.ofNullable(attributes.get("SequenceNumber"));
  }

  /** How many times the queue has handed the message out, this time included (1 if unknown). */
  public int receiveCount() {
    return QueueMessage.receiveCountOf(attributes.get("ApproximateReceiveCount"));
  }

  /**
   * The name of the queue whose redrive policy moved the message to the dead-letter queue it came
   * from (the last part of the system attribute {@code DeadLetterQueueSourceArn}, which Lambda's
   * events of a dead-letter queue carry); empty for a message sent to its queue.
   */
  public Optional<String> deadLetterSource() {
    String arn = attributes.get("DeadLetterQueueSourceArn");
    if (arn == null || arn.isBlank()) {
      return Optional.empty();
    }
    String name = queueName(arn);
    return name.isEmpty() ? Optional.empty() : Optional.of(name);
  }

  /** When the message was sent; empty if the event does not say. */
  public Optional<Instant> sentAt() {
    String millis = attributes.get("SentTimestamp");
    try {
      return millis == null
          ? Optional.empty()
          : Optional.of(Instant.ofEpochMilli(Long.parseLong(millis)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * The name of a queue given by name, URL ({@code https://sqs.../123456789012/name}) or ARN
   * ({@code arn:aws:sqs:region:account:name}).
   */
  public static String queueName(String nameUrlOrArn) {
    Objects.requireNonNull(nameUrlOrArn, "queue");
    String s = nameUrlOrArn.trim();
    if (s.startsWith("arn:")) {
      return s.substring(s.lastIndexOf(':') + 1);
    }
    int slash = s.endsWith("/") ? s.lastIndexOf('/', s.length() - 2) : s.lastIndexOf('/');
    String name = slash < 0 ? s : s.substring(slash + 1);
    return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
  }
}
