package dev.statekit.runtime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What became of a queue batch: the ids of the messages to hand back to the queue (Lambda's {@code
 * batchItemFailures}), why each of them failed, and counts of the rest.
 *
 * @param failedMessageIds messages to deliver again, in batch order: failed ones and, on a FIFO
 *     queue, the later messages of their groups
 * @param errors why each of {@code failedMessageIds} comes again, by message id
 * @param applied messages applied now
 * @param duplicates messages found applied before
 * @param deadLettered messages sent to the dead-letter queue with their error
 * @param deferred fired delayed messages dropped on their last attempt: their timers send them
 *     again
 */
public record QueueBatchResult(
    List<String> failedMessageIds,
    Map<String, String> errors,
    int applied,
    int duplicates,
    int deadLettered,
    int deferred) {
  /** Copies the collections. */
  public QueueBatchResult {
    failedMessageIds = List.copyOf(failedMessageIds);
    errors = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(errors));
  }
}
