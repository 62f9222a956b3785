package dev.statekit.event;

import dev.statekit.Deadline;
import java.time.Duration;
import java.util.List;

/**
 * Processes one batch from an event source: the messages of an SQS event, or the records of a
 * Kinesis or DynamoDB Streams event from one shard.
 *
 * @param <R> the record type: {@link QueueRecord}, {@link KinesisRecord} or {@link ChangeRecord}
 */
@FunctionalInterface
public interface BatchConsumer<R> {
  /**
   * Processes {@code records}, in order.
   *
   * @return which records to deliver again; throwing instead makes Lambda retry the whole batch
   */
  BatchOutcome accept(List<R> records) throws Exception;

  /**
   * Processes {@code records}, in order, answering by {@code deadline}: the entry point passes the
   * time its Lambda invocation has left. A consumer that stops early answers the records it did not
   * finish as failed, so that only those come again, instead of being cut off with none of its
   * answers; the default ignores the deadline.
   *
   * @return which records to deliver again; throwing instead makes Lambda retry the whole batch
   */
  default BatchOutcome accept(List<R> records, Deadline deadline) throws Exception {
    return accept(records);
  }

  /**
   * How much of the time left before {@code deadline} a batch keeps back to write, deliver and
   * answer what it took, as StateKit's consumers do: a third of it, at most 10 seconds; zero
   * without a deadline. Lambda cuts an invocation off at its timeout with none of its answers, so a
   * batch that does not stop in time is tried whole again, and cut off again.
   */
  static Duration reserve(Deadline deadline) {
    if (deadline.isUnlimited()) {
      return Duration.ZERO;
    }
    Duration third = deadline.remaining().dividedBy(3);
    return third.compareTo(MOST_RESERVED) < 0 ? third : MOST_RESERVED;
  }

  /**
   * A consumer that takes the deadline: {@code accept(records)} is {@code accept(records,
   * Deadline.none())}.
   */
  static <R> BatchConsumer<R> byDeadline(ByDeadline<R> consumer) {
    return new BatchConsumer<>() {
      @Override
      public BatchOutcome accept(List<R> records) throws Exception {
        return consumer.accept(records, Deadline.none());
      }

      @Override
      public BatchOutcome accept(List<R> records, Deadline deadline) throws Exception {
        return consumer.accept(records, deadline);
      }
    };
  }

  /** What {@link #byDeadline} makes a consumer of: a batch's records and its deadline. */
  @FunctionalInterface
  interface ByDeadline<R> {
    /** See {@link BatchConsumer#accept(List, Deadline)}. */
    BatchOutcome accept(List<R> records, Deadline deadline) throws Exception;
  }

  /** The most {@link #reserve} keeps back. */
  Duration MOST_RESERVED = Duration.ofSeconds(10);
}
