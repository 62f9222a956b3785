package dev.statekit.runtime.internal;

import dev.statekit.Deadline;
import dev.statekit.bus.QueueMessage;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.QueueRecord;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.QueueBatchResult;
import dev.statekit.runtime.SweepResult;
import dev.statekit.telemetry.Log;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The self-hosted runtime's entry points as the entry point's routes. */
public final class RuntimeRoutes {
  private static final Log LOG = Log.named(FunctionRuntime.FAILURES_LOGGER);

  private RuntimeRoutes() {}

  /**
   * The ingress queue's batches (and the wake-up queue's), refusing the messages of another FIFO
   * queue when the ingress queue's name is known ({@code ingressQueue}, else null).
   */
  public static BatchOutcome queueBatch(
      FunctionRuntime runtime, String ingressQueue, List<QueueRecord> records, Deadline deadline) {
    List<QueueMessage> messages = new ArrayList<>(records.size());
    List<String> foreign = new ArrayList<>();
    for (QueueRecord record : records) {
      if (ingressQueue != null
          && record.sequenceNumber().isPresent()
          && !ingressQueue.equals(record.queueName())) {
        // What a FIFO message applied is remembered by its group's sequence number, and another
        // FIFO queue's numbers would pass for repeats (or the other way round): only the ingress
        // queue is taken, the others' messages go back, and on to their dead-letter queue.
        foreign.add(record.messageId());
        continue;
      }
      messages.add(
          new QueueMessage(
              record.messageId(),
              record.body(),
              record.groupId().orElse(null),
              record.sequenceNumber().orElse(null),
              record.receiveCount()));
    }
    if (!foreign.isEmpty()) {
      LOG.warn(
          "Refused "
              + foreign.size()
              + " message(s) of a FIFO queue that is not the runtime's ingress queue '"
              + ingressQueue
              + "' (the queue's messages come back, then go to its dead-letter queue): send"
              + " messages for the runtime's functions to its ingress queue, or give the other"
              + " queue a runtime of its own");
    }
    QueueBatchResult result =
        messages.isEmpty() ? null : runtime.processQueueBatch(messages, deadline);
    List<String> failed = new ArrayList<>(foreign);
    if (result != null) {
      failed.addAll(result.failedMessageIds());
    }
    return BatchOutcome.failed(failed);
  }

  /**
   * The timer sweep until {@code deadline}: {@code {"sent": n, "failed": m, "more": true|false,
   * "outboxes": k, "outboxesLeft": l}}, where {@code more} means due messages were left for the
   * next scheduled event, and the outboxes are those of batches that did not finish delivering.
   */
  public static Map<String, Object> sweep(FunctionRuntime runtime, Deadline deadline) {
    SweepResult result = runtime.sweepTimers(deadline);
    // Outboxes the sweep had to take over are the ones batches left pending.
    dev.statekit.telemetry.Metrics.add(
        dev.statekit.telemetry.Metric.OUTBOXES_PENDING, result.outboxes() + result.outboxesLeft());
    dev.statekit.telemetry.Metrics.add(dev.statekit.telemetry.Metric.DELAYED_SENT, result.sent());
    return summary(result);
  }

  private static Map<String, Object> summary(SweepResult result) {
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("sent", result.sent());
    summary.put("failed", result.failed());
    summary.put("more", result.more());
    summary.put("outboxes", result.outboxes());
    summary.put("outboxesLeft", result.outboxesLeft());
    return summary;
  }
}
