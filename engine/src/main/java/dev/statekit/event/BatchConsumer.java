package dev.statekit.event;

import dev.statekit.Deadline;
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
}
