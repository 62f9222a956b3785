package dev.statekit.runtime;

import java.util.List;

/**
 * What became of a queue batch: the ids of the messages to hand back to the queue (Lambda's {@code
 * batchItemFailures}) and counts of the rest.
 *
 * @param failedMessageIds messages to deliver again, in batch order: failed ones and, on a FIFO
 *     queue, the later messages of their groups
 * @param applied messages applied now
 * @param duplicates messages found applied before
 * @param deadLettered messages sent to the dead-letter queue with their error
 */
public record QueueBatchResult(
    List<String> failedMessageIds, int applied, int duplicates, int deadLettered) {
  /** Copies the list. */
  public QueueBatchResult {
    failedMessageIds = List.copyOf(failedMessageIds);
  }
}
