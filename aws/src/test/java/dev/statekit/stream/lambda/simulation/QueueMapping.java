package dev.statekit.stream.lambda.simulation;

import dev.statekit.stream.lambda.SourceBatch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Lambda's event source mapping for an SQS queue, standard or FIFO: a received message is hidden
 * for the visibility timeout and comes back after it unless deleted, also while its first attempt
 * still runs; the receive count grows, and past maxReceiveCount the redrive policy moves it to the
 * dead-letter queue, under its message id (from which, once faults stop, the operator hands it to
 * the pipeline as the source queue's, as {@code BatchPipeline.deadLetterConsumer} does: SQS's own
 * redrive would give it a new id, which no receipt knows); a batch that answers failures has the
 * others deleted (ReportBatchItemFailures). A FIFO queue hands a group's messages over in order,
 * none while an earlier one of its group is in flight; a standard queue in any order, and now and
 * then a message again after it was deleted.
 */
final class QueueMapping {
  static final long VISIBILITY_MS = 120_000;
  static final int MAX_RECEIVES = 5;

  /** A message of the queue. */
  static final class Message {
    final String id;
    final String group;
    final byte[] data;
    final long sentAt;
    long visibleAt;
    int receives;
    boolean deleted;

    Message(String id, String group, byte[] data, long sentAt) {
      this.id = id;
      this.group = group;
      this.data = data;
      this.sentAt = sentAt;
    }
  }

  private final String queue;
  private final boolean fifo;
  private final int batchSize;
  private final Random random;
  private final List<Message> messages = new ArrayList<>();
  final List<Message> deadLetters = new ArrayList<>();
  private final Set<Message> inFlight = new HashSet<>();

  QueueMapping(String queue, boolean fifo, int batchSize, Random random) {
    this.queue = queue;
    this.fifo = fifo;
    this.batchSize = batchSize;
    this.random = random;
  }

  String split() {
    return queue;
  }

  void send(Message message) {
    messages.add(message);
  }

  /** Every message deleted or in the dead-letter queue. */
  boolean settled() {
    return messages.stream().allMatch(m -> m.deleted);
  }

  boolean drained() {
    return messages.stream().allMatch(m -> m.deleted) && deadLetters.isEmpty();
  }

  boolean ready(long now) {
    return !receivable(now).isEmpty();
  }

  /** When a hidden message shows again, or Long.MAX_VALUE. */
  long nextVisible(long now) {
    long next = Long.MAX_VALUE;
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

  private List<Message> receive(long now) {
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
      if (m.receives > MAX_RECEIVES) {
        m.deleted = true;
        deadLetters.add(m); // the redrive policy, with no word of why
        continue;
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
  void step(Invoker invoker, long now, Faults faults, Trace trace) {
    List<Message> batch = receive(now);
    if (batch.isEmpty()) {
      return;
    }
    List<List<Message>> received = new ArrayList<>();
    received.add(batch);
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
      }
    }
    inFlight.addAll(batch);
    List<SourceBatch> batches = new ArrayList<>();
    received.forEach(r -> batches.add(batch(r)));
    List<Invoker.Outcome> outcomes =
        batches.size() == 1 ? List.of(invoker.invoke(batches.get(0))) : invoker.together(batches);
    inFlight.removeAll(batch);
    for (int i = 0; i < received.size(); i++) {
      Invoker.Outcome outcome = outcomes.get(i);
      trace.add(
          queue
              + " receive of "
              + received.get(i).size()
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
        invoker.invoke(batch(List.of(copy)));
      }
    }
  }

  @Override
  public String toString() {
    long deleted = messages.stream().filter(m -> m.deleted).count();
    return messages.size()
        + " messages, "
        + deleted
        + " deleted, "
        + deadLetters.size()
        + " dead letters, "
        + inFlight.size()
        + " in flight";
  }

  /**
   * Hands the dead letters over again under their ids, as the dead-letter queue's event source
   * mapping with {@code BatchPipeline.deadLetterConsumer} does.
   */
  int recoverDeadLetters() {
    int moved = deadLetters.size();
    for (Message m : deadLetters) {
      m.deleted = false;
      m.receives = 0;
      m.visibleAt = 0;
    }
    deadLetters.clear();
    return moved;
  }

  private SourceBatch batch(List<Message> received) {
    SourceBatch.Builder batch = SourceBatch.unordered(queue);
    for (Message m : received) {
      Map<String, String> headers = new LinkedHashMap<>();
      if (fifo) {
        headers.put(SourceBatch.ORDER_GROUP, m.group);
      }
      batch.add(m.id, m.sentAt, m.data, headers);
    }
    return batch.build();
  }
}
