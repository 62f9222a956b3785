package dev.statekit.bus;

import dev.statekit.StateKitException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the in-memory queues refuse, as SQS's SendMessageBatch does, entry by entry: a body or
 * attribute holding a character SQS refuses ({@link SqsText}), and a message larger than the queue
 * takes ({@link BusMessage#sqsBytes()} past {@link MessageBus#maxMessageBytes()}). Without these
 * the in-memory tests would pass what the real queue refuses on every try.
 */
final class QueueLimits {
  private QueueLimits() {}

  /** The messages of {@code batch} the queue refuses, by index, each with why. */
  static Map<Integer, String> refusals(List<BusMessage> batch, int maxBytes) {
    Map<Integer, String> refused = new TreeMap<>();
    for (int i = 0; i < batch.size(); i++) {
      BusMessage message = batch.get(i);
      String why = SqsText.refusal(message);
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
