package dev.statekit.runtime;

import java.util.ArrayList;
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

  /**
   * Receives {@code receives} times, each followed by {@code between} (a visibility timeout
   * passing): an invocation that throws fails its whole batch, as Lambda's mapping takes it.
   *
   * @return the simple names of what the invocations threw, in order
   */
  static List<String> receive(
      QueueSource queue, FunctionRuntime runtime, int receives, Runnable between) {
    List<String> thrown = new ArrayList<>();
    for (int receive = 0; receive < receives; receive++) {
      try {
        pollOnce(queue, runtime);
      } catch (Throwable e) {
        thrown.add(e.getClass().getSimpleName());
      }
      between.run();
    }
    return thrown;
  }

  /** Polls until the queue hands out nothing {@code emptyPolls} times in a row. */
  static void drain(QueueSource queue, FunctionRuntime runtime, int emptyPolls) {
    int empty = 0;
    while (empty < emptyPolls) {
      empty = pollOnce(queue, runtime) == 0 ? empty + 1 : 0;
    }
  }
}
