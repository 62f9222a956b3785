package dev.statekit.entry.internal;

import dev.statekit.entry.BatchOutcome;
import dev.statekit.entry.QueueRecord;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.QueueBatchResult;
import dev.statekit.runtime.QueueMessage;
import dev.statekit.runtime.SweepResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The self-hosted runtime's entry points as the entry point's routes. */
public final class RuntimeRoutes {
  /** Sweeps at most this many times per scheduled event while more timers are due. */
  private static final int MAX_SWEEPS = 20;

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

  /** The timer sweep: sends the due delayed messages, sweeping again while more are due. */
  public static Map<String, Object> sweep(FunctionRuntime runtime) {
    int sent = 0;
    int failed = 0;
    SweepResult result;
    int sweeps = 0;
    do {
      result = runtime.sweepTimers();
      sent += result.sent();
      failed += result.failed();
    } while (result.more() && result.sent() > 0 && ++sweeps < MAX_SWEEPS);
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("sent", sent);
    summary.put("failed", failed);
    summary.put("more", result.more());
    return summary;
  }
}
