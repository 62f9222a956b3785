package dev.statekit.runtime.internal;

import dev.statekit.Deadline;
import dev.statekit.bus.QueueMessage;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.QueueRecord;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.QueueBatchResult;
import dev.statekit.runtime.SweepResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The self-hosted runtime's entry points as the entry point's routes. */
public final class RuntimeRoutes {
  private RuntimeRoutes() {}

  /** The ingress queue's batches. */
  public static BatchOutcome queueBatch(FunctionRuntime runtime, List<QueueRecord> records) {
    List<QueueMessage> messages = new ArrayList<>(records.size());
    for (QueueRecord record : records) {
      messages.add(
          new QueueMessage(
              record.messageId(),
              record.body(),
              record.groupId().orElse(null),
              record.sequenceNumber().orElse(null),
              record.receiveCount()));
    }
    QueueBatchResult result = runtime.processQueueBatch(messages);
    return BatchOutcome.failed(result.failedMessageIds());
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
