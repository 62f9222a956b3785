package dev.statekit.bus;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * A standard queue in this JVM's memory that behaves like an SQS standard queue where it matters to
 * the runtime: each message stays hidden for its own {@link BusMessage#delaySeconds() delay}; a
 * received message not deleted within the visibility timeout comes back with its receive count
 * raised; there are no groups and no deduplication (a message sent twice is there twice); a message
 * holding a character SQS refuses, or larger than it takes, is refused ({@link QueueLimits}), the
 * batch's others sent. It hands out the messages that became visible first, first; SQS promises no
 * order at all, which is why the runtime never relies on one. The embedded wake-up queue of the
 * local runner and of fast tests. Thread-safe; time comes from the given clock.
 */
public final class InMemoryStandardQueue implements MessageBus, InMemoryQueue {
  private final Clock clock;
  private final Duration visibilityTimeout;
  private final Map<String, Entry> messages = new LinkedHashMap<>();
  private long sequence;

  /** A queue whose received messages come back after {@code visibilityTimeout}. */
  public InMemoryStandardQueue(Clock clock, Duration visibilityTimeout) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.visibilityTimeout = Objects.requireNonNull(visibilityTimeout, "visibilityTimeout");
    if (visibilityTimeout.isNegative() || visibilityTimeout.isZero()) {
      throw new IllegalArgumentException("The visibility timeout must be positive");
    }
  }

  @Override
  public synchronized void send(List<BusMessage> batch) {
    if (batch.size() > MAX_BATCH) {
      throw new IllegalArgumentException(
          "A batch holds at most " + MAX_BATCH + " messages, got " + batch.size());
    }
    long now = clock.millis();
    Map<Integer, String> refused = QueueLimits.refusals(batch, maxMessageBytes(), false);
    for (int i = 0; i < batch.size(); i++) {
      if (!refused.containsKey(i)) {
        BusMessage message = batch.get(i);
        Entry entry = new Entry(message, ++sequence, now + message.delaySeconds() * 1000L);
        messages.put(entry.messageId, entry);
      }
    }
    if (!refused.isEmpty()) {
      throw QueueLimits.refused(refused, batch.size());
    }
  }

  @Override
  public int maxMessageBytes() {
    return QueueIds.MAX_MESSAGE_BYTES;
  }

  /** Hands out up to {@code max} visible messages, those visible longest first. */
  public synchronized List<InMemoryMessageBus.Received> receive(int max) {
    long now = clock.millis();
    List<Entry> visible = new ArrayList<>();
    for (Entry entry : messages.values()) {
      if (entry.visibleAt <= now) {
        visible.add(entry);
      }
    }
    visible.sort(
        Comparator.<Entry>comparingLong(e -> e.visibleAt).thenComparingLong(e -> e.sequence));
    List<InMemoryMessageBus.Received> received = new ArrayList<>();
    for (Entry entry : visible.subList(0, Math.min(max, visible.size()))) {
      entry.receiveCount++;
      entry.receipt = UUID.randomUUID().toString();
      entry.visibleAt = now + visibilityTimeout.toMillis();
      received.add(
          new InMemoryMessageBus.Received(
              entry.receipt,
              new QueueMessage(
                  entry.messageId, entry.message.body(), null, null, entry.receiveCount)));
    }
    return received;
  }

  /**
   * When the next message becomes visible (epoch ms, possibly already past), or empty if the queue
   * is empty: a poller sleeps until then instead of polling an empty queue.
   */
  public synchronized OptionalLong nextVisibleAt() {
    return messages.values().stream().mapToLong(e -> e.visibleAt).min();
  }

  /**
   * Deletes a received message.
   *
   * @return false if the receipt is stale (the message came back and was handed out again) or the
   *     message is already gone
   */
  public synchronized boolean delete(String receiptHandle) {
    return messages.values().removeIf(entry -> receiptHandle.equals(entry.receipt));
  }

  /**
   * Makes a received message visible again after {@code timeout}, as ChangeMessageVisibility does.
   *
   * @return false if the receipt is stale or the message gone
   */
  public synchronized boolean changeVisibility(String receiptHandle, Duration timeout) {
    for (Entry entry : messages.values()) {
      if (receiptHandle.equals(entry.receipt)) {
        entry.visibleAt = clock.millis() + timeout.toMillis();
        return true;
      }
    }
    return false;
  }

  /** How many messages are stored, hidden, in flight or visible. */
  public synchronized int size() {
    return messages.size();
  }

  /** Every stored message as it was sent, in the order sent. */
  public synchronized List<BusMessage> peekAll() {
    return messages.values().stream().map(entry -> entry.message).toList();
  }

  private static final class Entry {
    final BusMessage message;
    final long sequence;
    final String messageId = UUID.randomUUID().toString();
    int receiveCount;
    String receipt;
    long visibleAt;

    Entry(BusMessage message, long sequence, long visibleAt) {
      this.message = message;
      this.sequence = sequence;
      this.visibleAt = visibleAt;
    }
  }
}
