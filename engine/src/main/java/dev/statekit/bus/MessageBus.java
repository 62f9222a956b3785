package dev.statekit.bus;

import java.util.List;
import java.util.Optional;

/**
 * A queue the runtime sends to: messages between functions and fired timers go to the ingress FIFO
 * queue (group = target address), dead letters to the dead-letter queue. Adapters: {@code
 * SqsMessageBus} and {@link InMemoryMessageBus}. Thread-safe.
 */
public interface MessageBus {
  /** The most messages {@link #send} takes at once. */
  int MAX_BATCH = 10;

  /**
   * Sends up to {@link #MAX_BATCH} messages; messages of one group are enqueued in list order.
   *
   * @throws BusException naming the messages that were not sent (after retries of passing failures)
   * @throws IllegalArgumentException if more than {@link #MAX_BATCH} messages are given
   */
  void send(List<BusMessage> messages);

  /** The largest body, in bytes, the queue takes (with its attributes). */
  int maxMessageBytes();

  /**
   * The queue's name, as an SQS event's {@code eventSourceARN} ends, if the bus is on a named
   * queue: the runtime then takes ordered (FIFO) batches from that queue only.
   */
  default Optional<String> queueName() {
    return Optional.empty();
  }
}
