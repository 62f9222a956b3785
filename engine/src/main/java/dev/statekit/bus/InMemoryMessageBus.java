package dev.statekit.bus;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A FIFO queue in this JVM's memory that behaves like an SQS FIFO queue: messages of one group are
 * handed out in order and never while an earlier one of the group is in flight; a message not
 * deleted within the visibility timeout comes back with its receive count raised; a repeated
 * deduplication id is dropped for five minutes, also after the first was deleted; with a redrive
 * policy, a message received {@code maxReceiveCount} times moves to the dead-letter queue as it was
 * (with no word of why) instead of being received again; a message holding a character SQS refuses,
 * or larger than it takes, is refused ({@link QueueLimits}), the batch's others sent. The embedded
 * queue of the local runner and of fast tests. Thread-safe; time comes from the given clock.
 */
public final class InMemoryMessageBus implements MessageBus, InMemoryQueue {
  private static final Duration DEDUPLICATION_WINDOW = Duration.ofMinutes(5);

  private final Clock clock;
  private final Duration visibilityTimeout;
  private final InMemoryMessageBus redriveTo;
  private final int maxReceiveCount;
  private final Map<String, Deque<Entry>> groups = new LinkedHashMap<>();
  private final Map<String, Long> deduplication = new HashMap<>();
  private long sequence;

  /** A queue whose received messages come back after {@code visibilityTimeout}. */
  public InMemoryMessageBus(Clock clock, Duration visibilityTimeout) {
    this(clock, visibilityTimeout, null, 0);
  }

  /**
   * A queue whose received messages come back after {@code visibilityTimeout}, and move to {@code
   * deadLetters} once received {@code maxReceiveCount} times, as SQS's redrive policy does.
   *
   * @throws IllegalArgumentException if {@code maxReceiveCount} is under 1
   */
  public InMemoryMessageBus(
      Clock clock,
      Duration visibilityTimeout,
      InMemoryMessageBus deadLetters,
      int maxReceiveCount) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.visibilityTimeout = Objects.requireNonNull(visibilityTimeout, "visibilityTimeout");
    if (visibilityTimeout.isNegative() || visibilityTimeout.isZero()) {
      throw new IllegalArgumentException("The visibility timeout must be positive");
    }
    if (deadLetters != null && maxReceiveCount < 1) {
      throw new IllegalArgumentException(
          "maxReceiveCount is 1 or more (SQS allows 1 to 1000), got " + maxReceiveCount);
    }
    this.redriveTo = deadLetters;
    this.maxReceiveCount = maxReceiveCount;
  }

  @Override
  public synchronized void send(List<BusMessage> messages) {
    if (messages.size() > MAX_BATCH) {
      throw new IllegalArgumentException(
          "A batch holds at most " + MAX_BATCH + " messages, got " + messages.size());
    }
    for (BusMessage message : messages) {
      if (message.delaySeconds() > 0) {
        throw new IllegalArgumentException(
            "A FIFO queue has no per-message delay; send delayed messages to a standard queue");
      }
    }
    long now = clock.millis();
    deduplication.values().removeIf(sentAt -> sentAt + DEDUPLICATION_WINDOW.toMillis() <= now);
    Map<Integer, String> refused = QueueLimits.refusals(messages, maxMessageBytes(), true);
    for (int i = 0; i < messages.size(); i++) {
      BusMessage message = messages.get(i);
      if (!refused.containsKey(i)
          && deduplication.putIfAbsent(message.deduplicationId(), now) == null) {
        groups
            .computeIfAbsent(message.groupId(), g -> new ArrayDeque<>())
            .add(new Entry(message, ++sequence));
      }
    }
    if (!refused.isEmpty()) {
      throw QueueLimits.refused(refused, messages.size());
    }
  }

  @Override
  public int maxMessageBytes() {
    return QueueIds.MAX_MESSAGE_BYTES;
  }

  /**
   * Hands out up to {@code max} visible messages, oldest group first, several of one group
   * together, as SQS does.
   */
  public synchronized List<Received> receive(int max) {
    long now = clock.millis();
    List<Deque<Entry>> ready = new ArrayList<>();
    for (Deque<Entry> group : groups.values()) {
      redrive(group, now);
      // SQS hands out no message of a group while one it handed out is in flight (not deleted,
      // not visible again): a group whose head came back waits for its later ones too.
      if (!group.isEmpty() && group.stream().noneMatch(entry -> entry.inFlight(now))) {
        ready.add(group);
      }
    }
    ready.sort(Comparator.comparingLong(group -> group.peekFirst().sequence));
    List<Received> received = new ArrayList<>();
    for (Deque<Entry> group : ready) {
      for (java.util.Iterator<Entry> entries = group.iterator(); entries.hasNext(); ) {
        Entry entry = entries.next();
        if (received.size() == max) {
          return received;
        }
        if (redriveTo != null && entry.receiveCount >= maxReceiveCount) {
          entries.remove();
          redriveTo.accept(entry.message);
          continue;
        }
        entry.receiveCount++;
        entry.receipt = UUID.randomUUID().toString();
        entry.visibleAt = now + visibilityTimeout.toMillis();
        received.add(new Received(entry.receipt, entry.toMessage()));
      }
    }
    return received;
  }

  /** Moves the visible messages at the head of {@code group} that were received often enough. */
  private void redrive(Deque<Entry> group, long now) {
    if (redriveTo == null) {
      return;
    }
    while (!group.isEmpty()) {
      Entry head = group.peekFirst();
      boolean visible = head.receipt == null || head.visibleAt <= now;
      if (!visible || head.receiveCount < maxReceiveCount) {
        return;
      }
      group.pollFirst();
      redriveTo.accept(head.message);
    }
  }

  private synchronized void accept(BusMessage message) {
    groups
        .computeIfAbsent(message.groupId(), g -> new ArrayDeque<>())
        .add(new Entry(message, ++sequence));
  }

  /**
   * Deletes a received message.
   *
   * @return false if the receipt is stale (the message came back and was handed out again) or the
   *     message is already gone
   */
  public synchronized boolean delete(String receiptHandle) {
    for (Deque<Entry> group : groups.values()) {
      if (group.removeIf(entry -> receiptHandle.equals(entry.receipt))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Makes a received message visible again after {@code timeout} instead of its visibility timeout,
   * as SQS's ChangeMessageVisibility does.
   *
   * @return false if the receipt is stale or the message gone
   */
  public synchronized boolean changeVisibility(String receiptHandle, Duration timeout) {
    for (Deque<Entry> group : groups.values()) {
      for (Entry entry : group) {
        if (receiptHandle.equals(entry.receipt)) {
          entry.visibleAt = clock.millis() + timeout.toMillis();
          return true;
        }
      }
    }
    return false;
  }

  /** How many messages are stored, in flight or not. */
  public synchronized int size() {
    return groups.values().stream().mapToInt(Deque::size).sum();
  }

  /** How many messages were received and are neither deleted nor visible again yet. */
  public synchronized int inFlight() {
    long now = clock.millis();
    int count = 0;
    for (Deque<Entry> group : groups.values()) {
      for (Entry entry : group) {
        if (entry.receipt != null && entry.visibleAt > now) {
          count++;
        }
      }
    }
    return count;
  }

  /**
   * Takes the stored message whose deduplication id is {@code deduplicationId} off the queue, in
   * flight or not (a console moving a dead letter back to its queue).
   *
   * @return the message, or empty if there is none of that id
   */
  public synchronized java.util.Optional<BusMessage> take(String deduplicationId) {
    for (Deque<Entry> group : groups.values()) {
      for (java.util.Iterator<Entry> entries = group.iterator(); entries.hasNext(); ) {
        Entry entry = entries.next();
        if (deduplicationId.equals(entry.message.deduplicationId())) {
          entries.remove();
          return java.util.Optional.of(entry.message);
        }
      }
    }
    return java.util.Optional.empty();
  }

  /** Every stored message as it was sent (attributes included), oldest first. */
  public synchronized List<BusMessage> peekAll() {
    List<Entry> all = new ArrayList<>();
    groups.values().forEach(all::addAll);
    all.sort(Comparator.comparingLong(entry -> entry.sequence));
    return all.stream().map(entry -> entry.message).toList();
  }

  /**
   * A message handed out by {@link #receive}.
   *
   * @param receiptHandle what {@link #delete} takes
   * @param message the message
   */
  public record Received(String receiptHandle, QueueMessage message) {}

  private static final class Entry {
    final BusMessage message;
    final long sequence;
    final String messageId = UUID.randomUUID().toString();
    int receiveCount;
    String receipt;
    long visibleAt;

    Entry(BusMessage message, long sequence) {
      this.message = message;
      this.sequence = sequence;
    }

    /** Handed out and neither deleted nor visible again. */
    boolean inFlight(long now) {
      return receipt != null && visibleAt > now;
    }

    QueueMessage toMessage() {
      return new QueueMessage(
          messageId,
          message.body(),
          message.groupId(),
          Long.toString(sequence),
          Math.max(1, receiveCount));
    }
  }
}
