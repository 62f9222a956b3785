package dev.statekit.stream.lambda.simulation;

import dev.statekit.event.QueueRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * An SQS queue, standard or FIFO, and Lambda's event source mapping for it: a received message is
 * hidden for the visibility timeout and comes back after it unless deleted, also while its first
 * attempt still runs; the receive count grows, and past maxReceiveCount the queue's redrive policy
 * moves it to its dead-letter queue (another {@code QueueMapping}): as SQS does, under the same
 * message id, with the same body and attributes, its receive count starting again, and with the
 * system attribute {@code DeadLetterQueueSourceArn} naming this queue's ARN. A dead-letter queue
 * has no redrive policy of its own: a message that fails there comes back after the visibility
 * timeout until it succeeds. Its mapping is left disabled until the operator enables it ({@link
 * #enable}), once the cause (the faults) is gone. A batch that answers failures has the others
 * deleted (ReportBatchItemFailures). A FIFO queue hands a group's messages over in order, none
 * while an earlier one of its group is in flight; a standard queue in any order, and now and then a
 * message again after it was deleted. Each receive is handed to the function as Lambda's SQS event:
 * {@link QueueRecord}s with the system attributes Lambda passes, to the consumer registered for the
 * queue ({@link QueueInvoker.Handler}).
 */
final class QueueMapping {
  static final long VISIBILITY_MS = 120_000;
  static final int MAX_RECEIVES = 5;
  private static final String ARN_PREFIX = "arn:aws:sqs:us-east-1:123456789012:";

  /** A message of the queue. */
  static final class Message {
    final String id;
    final String group;
    final byte[] data;
    final long sentAt;

    /** The ARN of the queue whose redrive policy moved it here, or null. */
    final String deadLetterSource;

    /** The queue's sequence number of a FIFO queue's message, or null. */
    String sequence;

    long visibleAt;
    long firstReceivedAt;
    int receives;
    boolean deleted;

    Message(String id, String group, byte[] data, long sentAt) {
      this(id, group, data, sentAt, null);
    }

    private Message(String id, String group, byte[] data, long sentAt, String deadLetterSource) {
      this.id = id;
      this.group = group;
      this.data = data;
      this.sentAt = sentAt;
      this.deadLetterSource = deadLetterSource;
    }
  }

  private final String queue;
  private final boolean fifo;
  private final int batchSize;
  private final Random random;
  private final QueueInvoker.Handler handler;
  private final QueueMapping deadLetterQueue;
  private final List<Message> messages = new ArrayList<>();
  private final Set<Message> inFlight = new HashSet<>();
  private long sequence = 10_000_000_000_000_000L;
  private boolean enabled;

  /** How many messages the redrive policy moved to the dead-letter queue. */
  int movedToDeadLetters;

  /**
   * @param queue the queue's name (a FIFO queue's ends in ".fifo")
   * @param handler the consumer the function registered for the queue
   * @param deadLetterQueue where the redrive policy moves a message received more than {@link
   *     #MAX_RECEIVES} times, or null for none
   * @param enabled whether the event source mapping hands messages over from the start
   */
  QueueMapping(
      String queue,
      boolean fifo,
      int batchSize,
      Random random,
      QueueInvoker.Handler handler,
      QueueMapping deadLetterQueue,
      boolean enabled) {
    this.queue = queue;
    this.fifo = fifo;
    this.batchSize = batchSize;
    this.random = random;
    this.handler = handler;
    this.deadLetterQueue = deadLetterQueue;
    this.enabled = enabled;
  }

  String split() {
    return queue;
  }

  String arn() {
    return ARN_PREFIX + queue;
  }

  void send(Message message) {
    if (fifo) {
      message.sequence = String.valueOf(sequence++); // the queue numbers what it takes, in order
    }
    messages.add(message);
  }

  /**
   * The redrive policy moves {@code m} here from {@code source}: same id, body and attributes, the
   * receive count from zero, visible at once, naming the queue it came from.
   */
  private void moveIn(Message m, String source, long now) {
    Message moved = new Message(m.id, m.group, m.data, m.sentAt, source);
    moved.visibleAt = now;
    send(moved);
  }

  /** Enables the event source mapping (a dead-letter queue's, once the cause is fixed). */
  boolean enable() {
    boolean was = enabled;
    enabled = true;
    return !was;
  }

  /** How many messages the queue holds (not deleted). */
  int waiting() {
    return (int) messages.stream().filter(m -> !m.deleted).count();
  }

  /** Every message deleted or moved to the dead-letter queue. */
  boolean settled() {
    return messages.stream().allMatch(m -> m.deleted);
  }

  /** Every message deleted, none waiting in the dead-letter queue either. */
  boolean drained() {
    return settled() && (deadLetterQueue == null || deadLetterQueue.drained());
  }

  boolean ready(long now) {
    return enabled && !receivable(now).isEmpty();
  }

  /** When a hidden message shows again, or Long.MAX_VALUE. */
  long nextVisible(long now) {
    long next = Long.MAX_VALUE;
    if (!enabled) {
      return next;
    }
    for (Message m : messages) {
      if (!m.deleted && m.visibleAt > now) {
        next = Math.min(next, m.visibleAt);
      }
    }
    return next;
  }

  private List<Message> receivable(long now) {
    List<Message> visible = new ArrayList<>();
    Set<String> blocked = new HashSet<>();
    for (Message m : messages) {
      if (m.deleted) {
        continue;
      }
      if (fifo && blocked.contains(m.group)) {
        continue;
      }
      if (fifo) {
        blocked.add(m.group); // a group's later messages wait for this one
      }
      if (m.visibleAt <= now && !(fifo && inFlight.contains(m))) {
        visible.add(m);
      }
    }
    return visible;
  }

  private List<Message> receive(long now, Trace trace) {
    List<Message> visible = receivable(now);
    if (!fifo) {
      java.util.Collections.shuffle(visible, random);
    }
    List<Message> batch = new ArrayList<>();
    int size = 1 + random.nextInt(batchSize);
    for (Message m : visible) {
      if (batch.size() == size) {
        break;
      }
      m.receives++;
      if (deadLetterQueue != null && m.receives > MAX_RECEIVES) {
        m.deleted = true; // the redrive policy, with no word of why
        deadLetterQueue.moveIn(m, arn(), now);
        movedToDeadLetters++;
        trace.add(queue + " moves " + m.id + " to " + deadLetterQueue.queue);
        continue;
      }
      if (m.receives == 1) {
        m.firstReceivedAt = now;
      }
      m.visibleAt = now + VISIBILITY_MS;
      batch.add(m);
    }
    return batch;
  }

  /**
   * One receive and its invocation; sometimes, as if the first attempt outlived the visibility
   * timeout, a second receive of some of the same messages runs at the same time.
   */
  void step(QueueInvoker invoker, long now, Faults faults, Trace trace) {
    List<Message> batch = receive(now, trace);
    if (batch.isEmpty()) {
      return;
    }
    List<List<Message>> received = new ArrayList<>();
    List<List<QueueRecord>> events = new ArrayList<>();
    received.add(batch);
    events.add(event(batch)); // with the receive counts of this receive
    if (faults.chance(faults.concurrent)) {
      List<Message> again = new ArrayList<>();
      for (Message m : batch) {
        if (random.nextBoolean()) {
          m.receives++;
          again.add(m);
        }
      }
      if (!again.isEmpty()) {
        received.add(again);
        events.add(event(again));
      }
    }
    inFlight.addAll(batch);
    List<Invoker.Outcome> outcomes =
        events.size() == 1
            ? List.of(invoker.invoke(handler, events.get(0)))
            : invoker.together(handler, events);
    inFlight.removeAll(batch);
    for (int i = 0; i < received.size(); i++) {
      Invoker.Outcome outcome = outcomes.get(i);
      trace.add(
          queue
              + " receive of "
              + received.get(i).size()
              + " by "
              + handler
              + (i > 0 ? " (again, while the first ran)" : "")
              + ": "
              + (outcome.error() != null
                  ? outcome.error().getMessage()
                  : "failed " + outcome.failed()));
      if (outcome.error() == null) {
        for (Message m : received.get(i)) {
          if (!outcome.failed().contains(m.id)) {
            m.deleted = true;
          }
        }
      }
    }
    if (!fifo && faults.chance(faults.duplicate)) {
      Message copy = batch.get(random.nextInt(batch.size()));
      if (copy.deleted) {
        trace.add(queue + " hands " + copy.id + " over again after its deletion");
        invoker.invoke(handler, event(List.of(copy)));
      }
    }
  }

  @Override
  public String toString() {
    long deleted = messages.stream().filter(m -> m.deleted).count();
    return queue
        + ": "
        + messages.size()
        + " messages, "
        + deleted
        + " deleted, "
        + (deadLetterQueue == null
            ? ""
            : movedToDeadLetters + " moved to " + deadLetterQueue + ", ")
        + inFlight.size()
        + " in flight"
        + (deadLetterQueue == null ? ", read by " + handler : "")
        + (enabled ? "" : ", mapping disabled");
  }

  /** The received messages as Lambda's SQS event hands them to the function. */
  private List<QueueRecord> event(List<Message> received) {
    List<QueueRecord> event = new ArrayList<>();
    for (Message m : received) {
      Map<String, String> attributes = new LinkedHashMap<>();
      attributes.put("ApproximateReceiveCount", String.valueOf(m.receives));
      attributes.put("SentTimestamp", String.valueOf(m.sentAt));
      attributes.put("SenderId", "AIDASIMULATEDSENDER");
      attributes.put("ApproximateFirstReceiveTimestamp", String.valueOf(m.firstReceivedAt));
      if (fifo) {
        attributes.put("MessageGroupId", m.group);
        attributes.put("SequenceNumber", m.sequence);
        attributes.put("MessageDeduplicationId", m.id);
      }
      if (m.deadLetterSource != null) {
        attributes.put("DeadLetterQueueSourceArn", m.deadLetterSource);
      }
      event.add(
          new QueueRecord(
              queue, m.id, new String(m.data, StandardCharsets.UTF_8), attributes, Map.of()));
    }
    return event;
  }
}
