package dev.statekit.stream.lambda;

import java.util.Objects;

/**
 * A message of an unordered split (an SQS queue, a DynamoDB stream) that was applied, its receipt
 * written, but whose outputs its sinks did not take: the batch answered it done all the same, so
 * that the queue never moves an applied message to its dead-letter queue (redriven, it would come
 * under a new message id and be applied again), and the pipeline's tick delivers its receipt's
 * outputs once the sinks take them. A batch of the split that finds deferred messages defers its
 * own too, so that outputs go out in the order their messages were applied.
 *
 * @param order sorts as the messages' outputs must go out: when the batch deferred them (20
 *     digits), its place in the batch, and the message id
 * @param message the message's id, whose receipt holds the outputs
 * @param since when the receipt was last written, epoch ms: the tick writes it again, with a new
 *     expiry, before the pipeline's retention ends
 */
public record DeferredMessage(String order, String message, long since) {
  public DeferredMessage {
    Objects.requireNonNull(order, "order");
    Objects.requireNonNull(message, "message");
  }

  /** The entry for the message at place {@code index} of a batch that deferred it at {@code at}. */
  public static DeferredMessage of(long at, int index, String message) {
    return new DeferredMessage(
        TimerItem.timePrefix(at) + "#" + String.format("%06d", index) + "#" + message, message, at);
  }
}
