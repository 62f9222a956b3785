package dev.statekit.egress;

import java.util.List;

/**
 * Where egress records go: an SQS queue ({@code SqsEgressSink}), a Kinesis stream ({@code
 * KinesisEgressSink}), a DynamoDB table ({@code DynamoDbTableSink}), the log ({@link LoggingSink}),
 * a function address ({@link FunctionAddressSink}), or memory ({@link CollectingEgressSink}).
 * {@link EgressRoutes} maps each egress onto a sink.
 *
 * <p>The runtime delivers a record after the commit that produced it and again if it cannot tell
 * whether a delivery finished (a crash in between), always with the same {@link EgressRecord#id()}.
 * A sink that writes by id (a table, a FIFO queue's deduplication) keeps each record once; the
 * others may show a record twice after a crash, and their readers can drop repeats by id.
 */
public interface EgressSink {
  /**
   * Delivers the records, in order (a sink whose service can reorder a retried part says so).
   *
   * @throws EgressException if some were not delivered (after retries of passing failures); the
   *     runtime delivers them again later. A record refused for what it holds is named ({@link
   *     EgressException#refusing}), as {@link #check} would refuse it.
   */
  void deliver(List<EgressRecord> records);

  /**
   * Refuses a record no delivery to this sink can take, whatever the service's state and the sink's
   * configuration: one past the service's size limit. Sends nothing. Callers that set such records
   * aside (a batch pipeline's {@code refusedOutputsTo}) ask it once a delivery named a refused
   * record, to sort the rest in one pass. Takes every record by default.
   *
   * @throws EgressException {@linkplain EgressException#refusing refusing} the record, saying why
   */
  default void check(EgressRecord record) {}
}
