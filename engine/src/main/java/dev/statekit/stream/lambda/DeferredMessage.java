package dev.statekit.stream.lambda;

import java.util.Objects;

/**
 * A message of an unordered split (an SQS queue, a DynamoDB stream) that was applied, its receipt
 * written, but whose outputs its sinks did not take: the batch answered it done all the same, so
 * that the queue never moves an applied message to its dead-letter queue, and the pipeline's tick
 * delivers its receipt's outputs once the sinks take them. Its receipt is kept until then, up to 14
 * days past the pipeline's retention. A batch of order groups that finds deferred messages of its
 * split defers its own behind them, so that outputs go out in the order their messages were
 * applied.
 *
 * @param order sorts as the messages' outputs must go out: a time (20 digits), the message's place
 *     in its batch, and its id
 * @param message the message's id, whose receipt holds the outputs
 */
public record DeferredMessage(String order, String message) {
  public DeferredMessage {
    Objects.requireNonNull(order, "order");
    Objects.requireNonNull(message, "message");
  }

  /** The entry for the message at place {@code index} of a batch that deferred it at {@code at}. */
  public static DeferredMessage of(long at, int index, String message) {
    return new DeferredMessage(
        TimerItem.timePrefix(at) + "#" + String.format("%06d", index) + "#" + message, message);
  }

  /**
   * The entry for the message at place {@code index} of a batch that deferred it at {@code at},
   * behind {@code last} (the split's last entry, or null): a later time than last's even if this
   * invocation's clock is behind the one that wrote it, or it came within the same millisecond.
   */
  public static DeferredMessage after(DeferredMessage last, long at, int index, String message) {
    return of(last == null ? at : Math.max(at, last.time() + 1), index, message);
  }

  /** The time in {@link #order}. */
  long time() {
    return Long.parseUnsignedLong(order.substring(0, 20)) ^ Long.MIN_VALUE;
  }
}
