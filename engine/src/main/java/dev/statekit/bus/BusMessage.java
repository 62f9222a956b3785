package dev.statekit.bus;

import java.util.Map;
import java.util.Objects;

/**
 * A message for a queue: its FIFO message group, its deduplication id (a repeat with the same id is
 * dropped by the queue within its deduplication window), the body, string attributes, and a delay.
 *
 * @param groupId the message group; messages of one group are delivered in order (ignored by a
 *     standard queue)
 * @param deduplicationId the same for every send of the same message (ignored by a standard queue)
 * @param body the message body (text)
 * @param attributes message attributes, e.g. the error of a dead letter
 * @param delaySeconds how long the queue hides the message after it is sent, 0 to {@link
 *     #MAX_DELAY_SECONDS}; only a standard queue takes a delay of its own per message
 */
public record BusMessage(
    String groupId,
    String deduplicationId,
    String body,
    Map<String, String> attributes,
    int delaySeconds) {
  /** SQS hides a message for at most 15 minutes. */
  public static final int MAX_DELAY_SECONDS = 900;

  /** Checks the parts and copies the attributes. */
  public BusMessage {
    Objects.requireNonNull(groupId, "groupId");
    Objects.requireNonNull(deduplicationId, "deduplicationId");
    Objects.requireNonNull(body, "body");
    attributes = Map.copyOf(attributes);
    if (delaySeconds < 0 || delaySeconds > MAX_DELAY_SECONDS) {
      throw new IllegalArgumentException(
          "A message's delay is 0 to "
              + MAX_DELAY_SECONDS
              + " seconds (SQS's limit), got "
              + delaySeconds
              + "; longer delays wait as durable timers");
    }
  }

  /** A message with attributes and no delay. */
  public BusMessage(
      String groupId, String deduplicationId, String body, Map<String, String> attributes) {
    this(groupId, deduplicationId, body, attributes, 0);
  }

  /** A message without attributes. */
  public BusMessage(String groupId, String deduplicationId, String body) {
    this(groupId, deduplicationId, body, Map.of(), 0);
  }

  /**
   * The bytes SQS counts against a queue's size limit: the body and each attribute's name, data
   * type ("String") and value, in UTF-8.
   */
  public int sqsBytes() {
    int bytes = utf8Length(body);
    for (Map.Entry<String, String> attribute : attributes.entrySet()) {
      bytes +=
          utf8Length(attribute.getKey()) + "String".length() + utf8Length(attribute.getValue());
    }
    return bytes;
  }

  private static int utf8Length(String text) {
    return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
  }

  /** This message, hidden for {@code seconds} after it is sent (standard queues only). */
  public BusMessage delayedBy(int seconds) {
    return new BusMessage(groupId, deduplicationId, body, attributes, seconds);
  }
}
