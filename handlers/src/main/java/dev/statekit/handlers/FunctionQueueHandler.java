package dev.statekit.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.statekit.bus.QueueMessage;
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
    for (SQSEvent.SQSMessage record : event.getRecords()) {
      Map<String, String> attributes =
          record.getAttributes() == null ? Map.of() : record.getAttributes();
      messages.add(
          new QueueMessage(
              record.getMessageId(),
              record.getBody() == null ? "" : record.getBody(),
              attributes.get("MessageGroupId"),
              attributes.get("SequenceNumber"),
              QueueMessage.receiveCountOf(attributes.get("ApproximateReceiveCount"))));
    }
    QueueBatchResult result = runtime.processQueueBatch(messages);
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    result
        .failedMessageIds()
        .forEach(
            id ->
                failures.add(
                    SQSBatchResponse.BatchItemFailure.builder().withItemIdentifier(id).build()));
    return SQSBatchResponse.builder().withBatchItemFailures(failures).build();
  }
}
