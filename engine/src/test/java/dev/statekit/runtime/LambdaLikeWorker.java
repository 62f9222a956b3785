package dev.statekit.runtime;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Does what Lambda's SQS event source mapping does: receive a batch, hand it to the runtime, delete
 * the messages that succeeded, leave the failed ones to come back.
 */
final class LambdaLikeWorker {
  private LambdaLikeWorker() {}

  /** One poll; returns how many messages were received. */
  static int pollOnce(QueueSource queue, FunctionRuntime runtime) {
    List<QueueSource.Received> batch = queue.receive(10);
    if (batch.isEmpty()) {
      return 0;
    }
    QueueBatchResult result =
        runtime.processQueueBatch(batch.stream().map(QueueSource.Received::message).toList());
    Set<String> failed = new HashSet<>(result.failedMessageIds());
    for (QueueSource.Received received : batch) {
      if (!failed.contains(received.message().messageId())) {
        queue.delete(received.receiptHandle());
      }
    }
    return batch.size();
  }

  /** Polls until the queue hands out nothing {@code emptyPolls} times in a row. */
  static void drain(QueueSource queue, FunctionRuntime runtime, int emptyPolls) {
    int empty = 0;
    while (empty < emptyPolls) {
      empty = pollOnce(queue, runtime) == 0 ? empty + 1 : 0;
    }
  }
}
