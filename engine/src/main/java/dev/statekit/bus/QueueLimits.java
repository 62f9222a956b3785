package dev.statekit.bus;

import dev.statekit.StateKitException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the in-memory queues refuse, as SQS's SendMessageBatch does, entry by entry: a body or
 * attribute holding a character SQS refuses ({@link SqsText}); an empty body, more than ten
 * attributes or an empty one, and on a FIFO queue a group or deduplication id that is not 1 to 128
 * printable ASCII characters; and a message larger than the queue takes ({@link
 * BusMessage#sqsBytes()} past {@link MessageBus#maxMessageBytes()}). Without these the in-memory
 * tests would pass what the real queue refuses on every try.
 */
final class QueueLimits {
  private QueueLimits() {}

  /** SQS's most message attributes. */
  static final int MAX_ATTRIBUTES = 10;

  /** SQS's longest group and deduplication ids. */
  static final int MAX_ID_LENGTH = 128;

  /**
   * The messages of {@code batch} the queue refuses, by index, each with why; a FIFO queue ({@code
   * fifo}) also checks their group and deduplication ids.
   */
  static Map<Integer, String> refusals(List<BusMessage> batch, int maxBytes, boolean fifo) {
    Map<Integer, String> refused = new TreeMap<>();
    for (int i = 0; i < batch.size(); i++) {
      BusMessage message = batch.get(i);
      String why = SqsText.refusal(message);
      if (why == null) {
        why = shapeRefusal(message, fifo);
      }
      if (why == null && message.sqsBytes() > maxBytes) {
        why =
            "it takes "
                + message.sqsBytes()
                + " bytes (body and attributes), more than the queue's "
                + maxBytes;
      }
      if (why != null) {
        refused.put(i, why);
      }
    }
    return refused;
  }

  /** What SQS refuses in a message's shape, as its API reference documents it, or null. */
  private static String shapeRefusal(BusMessage message, boolean fifo) {
    if (message.body().isEmpty()) {
      return "its body is empty (SQS takes a body of at least one character)";
    }
    if (message.attributes().size() > MAX_ATTRIBUTES) {
      return "it has "
          + message.attributes().size()
          + " attributes (SQS takes at most "
          + MAX_ATTRIBUTES
          + ")";
    }
    for (Map.Entry<String, String> attribute : message.attributes().entrySet()) {
      if (attribute.getValue().isEmpty()) {
        return "its attribute '" + attribute.getKey() + "' is empty (SQS takes a non-empty String)";
      }
    }
    if (fifo) {
      String group = idRefusal("group id", message.groupId());
      return group != null ? group : idRefusal("deduplication id", message.deduplicationId());
    }
    return null;
  }

  /** A FIFO id is 1 to 128 printable ASCII characters (33 to 126). */
  private static String idRefusal(String what, String id) {
    if (id.isEmpty() || id.length() > MAX_ID_LENGTH) {
      return "its " + what + " is " + id.length() + " characters (SQS takes 1 to 128)";
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c < 33 || c > 126) {
        return "its " + what + " holds " + (int) c + " at " + i + " (SQS takes ASCII 33 to 126)";
      }
    }
    return null;
  }

  /**
   * What an in-memory queue throws for the messages it refused: for good (sending them again cannot
   * help), the batch's others sent.
   */
  static BusException refused(Map<Integer, String> refusals, int batchSize) {
    StringBuilder why = new StringBuilder();
    refusals.forEach((i, reason) -> why.append("; message ").append(i).append(": ").append(reason));
    return new BusException(
        StateKitException.Reason.INVALID_REQUEST,
        "The queue refused " + refusals.size() + " of " + batchSize + " messages" + why,
        refusals.keySet(),
        null);
  }
}
