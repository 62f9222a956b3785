package dev.statekit.event;

import java.util.List;

/**
 * Which records of a batch failed, answered to Lambda as {@code batchItemFailures} (the event
 * source mapping needs {@code FunctionResponseTypes: [ReportBatchItemFailures]}). For SQS the
 * identifiers are message ids and only those messages come back; for Kinesis and DynamoDB Streams
 * give the sequence number of the first failed record: Lambda retries the shard from there.
 *
 * @param failedItemIds the identifiers of the records to deliver again
 */
public record BatchOutcome(List<String> failedItemIds) {
  private static final BatchOutcome ALL_DONE = new BatchOutcome(List.of());

  /** Copies the list. */
  public BatchOutcome {
    failedItemIds = List.copyOf(failedItemIds);
  }

  /** Every record was processed. */
  public static BatchOutcome allSucceeded() {
    return ALL_DONE;
  }

  /** These records failed. */
  public static BatchOutcome failed(List<String> itemIds) {
    return itemIds.isEmpty() ? ALL_DONE : new BatchOutcome(itemIds);
  }
}
