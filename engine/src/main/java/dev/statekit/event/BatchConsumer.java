package dev.statekit.event;

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
}
