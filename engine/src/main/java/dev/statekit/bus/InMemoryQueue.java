package dev.statekit.bus;

import java.time.Duration;
import java.util.List;

/**
 * What a poller does with an in-memory queue, as Lambda's event source mapping does with SQS:
 * receive a batch, delete what succeeded, let what failed show again.
 */
public interface InMemoryQueue {
  /** Hands out up to {@code max} visible messages, each hidden for the visibility timeout. */
  List<InMemoryMessageBus.Received> receive(int max);

  /** Deletes a received message; false if its receipt is stale. */
  boolean delete(String receiptHandle);

  /** Shows a received message again after {@code timeout}; false if its receipt is stale. */
  boolean changeVisibility(String receiptHandle, Duration timeout);
}
