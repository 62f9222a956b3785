package dev.statekit.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.statekit.bus.QueueMessage;
import dev.statekit.entry.MalformedEventException;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.QueueBatchResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The ingress queue's batches (an SQS event source mapping with {@code ReportBatchItemFailures}):
 * answers the messages to deliver again as {@code batchItemFailures}, so one bad message does not
 * make Lambda retry the good ones. Subclass it with a no-argument constructor that builds the
 * runtime once (see {@code GreeterQueueHandler}).
 */
public class FunctionQueueHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  private final FunctionRuntime runtime;

  /** Serves {@code runtime}. */
  public FunctionQueueHandler(FunctionRuntime runtime) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    List<QueueMessage> messages = new ArrayList<>();
    List<SQSEvent.SQSMessage> records = event.getRecords() == null ? List.of() : event.getRecords();
    for (int i = 0; i < records.size(); i++) {
      messages.add(message(records.get(i), i));
    }
    QueueBatchResult result = runtime.processQueueBatch(messages, Deadlines.of(context));
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    result
        .failedMessageIds()
        .forEach(
            id ->
                failures.add(
                    SQSBatchResponse.BatchItemFailure.builder().withItemIdentifier(id).build()));
    return SQSBatchResponse.builder().withBatchItemFailures(failures).build();
  }

  /**
   * One record as the runtime takes it. SQS always sends a message id and, on a FIFO queue, a
   * decimal sequence number; an event without them (written by hand for a direct invoke) is refused
   * whole, before anything of it is applied: without an id no failure can be answered, and the
   * runtime deduplicates a group's messages by their sequence numbers.
   */
  private static QueueMessage message(SQSEvent.SQSMessage record, int index) {
    String where = "Records[" + index + "]";
    if (record.getMessageId() == null || record.getMessageId().isEmpty()) {
      throw new MalformedEventException(
          where + ".messageId is missing: SQS gives every message one, which a failure names");
    }
    Map<String, String> attributes =
        record.getAttributes() == null ? Map.of() : record.getAttributes();
    try {
      return new QueueMessage(
          record.getMessageId(),
          record.getBody() == null ? "" : record.getBody(),
          attributes.get("MessageGroupId"),
          attributes.get("SequenceNumber"),
          QueueMessage.receiveCountOf(attributes.get("ApproximateReceiveCount")));
    } catch (IllegalArgumentException e) {
      throw new MalformedEventException(
          where + " (" + record.getMessageId() + "): " + e.getMessage());
    }
  }
}
