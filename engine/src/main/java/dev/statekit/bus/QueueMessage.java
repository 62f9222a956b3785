package dev.statekit.bus;

import java.util.Objects;

/**
 * One message of a queue batch, as Lambda's SQS event source hands it over.
 *
 * @param messageId the queue's id of the message (answered back for failed messages)
 * @param body the body: an ingress envelope, or a message the runtime sent itself
 * @param groupId the FIFO message group, {@code null} on a standard queue
 * @param sequenceNumber the FIFO sequence number (1 to 39 decimal digits), {@code null} on a
 *     standard queue
 * @param receiveCount how many times the queue has handed the message out, this time included
 */
public record QueueMessage(
    String messageId, String body, String groupId, String sequenceNumber, int receiveCount) {
  /** Checks the parts. */
  public QueueMessage {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(body, "body");
    if (sequenceNumber != null && !isSequenceNumber(sequenceNumber)) {
      // The runtime orders and deduplicates a FIFO group's messages by it: one it cannot compare
      // would take the message without that check.
      throw new IllegalArgumentException(
          "sequenceNumber is a FIFO queue's sequence number, 1 to 39 decimal digits, or null on a"
              + " standard queue; got '"
              + (sequenceNumber.length() <= 64 ? sequenceNumber : sequenceNumber.substring(0, 64))
              + "'");
    }
    if (receiveCount < 1) {
      throw new IllegalArgumentException(
          "receiveCount counts the current delivery, so it is 1 or more; got " + receiveCount);
    }
  }

  private static boolean isSequenceNumber(String text) {
    if (text.isEmpty() || text.length() > 39) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * The receive count an SQS message's {@code ApproximateReceiveCount} attribute says: 1 (this
   * delivery, the first) when it is absent or not a count of 1 or more, as in an event written by
   * hand, so that such a message is taken like any other instead of failing its batch.
   */
  public static int receiveCountOf(String approximateReceiveCount) {
    if (approximateReceiveCount == null) {
      return 1;
    }
    try {
      return Math.max(1, Integer.parseInt(approximateReceiveCount));
    } catch (NumberFormatException e) {
      return 1;
    }
  }
}
