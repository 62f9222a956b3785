package dev.statekit.local.emulation;

import dev.statekit.aws.events.EventWriter;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.InMemoryQueue;
import dev.statekit.bus.InMemoryStandardQueue;
import dev.statekit.bus.QueueMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Lambda's SQS event source mapping over an in-memory queue (FIFO, or standard with per-message
 * delays): batches of up to ten, handed to the function as SQS events; what succeeded is deleted,
 * what failed comes back after the queue's visibility timeout. It polls every 20 ms, so a delayed
 * message is handed over within that of when it shows.
 */
public final class InMemoryQueuePoller extends PollLoop {
  private static final int BATCH = 10;
  private static final String ARN = "arn:aws:sqs:us-east-1:000000000000:in-memory-ingress.fifo";
  private static final String WAKE_UP_ARN = "arn:aws:sqs:us-east-1:000000000000:in-memory-wake-ups";

  private final InMemoryQueue queue;
  private final String arn;
  private final Invoker function;
  private final Activity activity;
  private final String name;
  private final int retryAfterSeconds;

  /**
   * Polls {@code queue} for {@code function}; failed messages come back after {@code
   * retryAfterSeconds}, or after the queue's visibility timeout if it is negative.
   */
  public InMemoryQueuePoller(
      String name,
      InMemoryMessageBus queue,
      Invoker function,
      Activity activity,
      int retryAfterSeconds) {
    this(name, queue, ARN, function, activity, retryAfterSeconds);
  }

  /** Polls the standard {@code queue} (the runtime's wake-ups) for {@code function}. */
  public InMemoryQueuePoller(
      String name,
      InMemoryStandardQueue queue,
      Invoker function,
      Activity activity,
      int retryAfterSeconds) {
    this(name, queue, WAKE_UP_ARN, function, activity, retryAfterSeconds);
  }

  private InMemoryQueuePoller(
      String name,
      InMemoryQueue queue,
      String arn,
      Invoker function,
      Activity activity,
      int retryAfterSeconds) {
    super(name, activity, 20);
    this.name = name;
    this.queue = queue;
    this.arn = arn;
    this.function = function;
    this.activity = activity;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  @Override
  protected boolean pollOnce() {
    List<InMemoryMessageBus.Received> batch = queue.receive(BATCH);
    if (batch.isEmpty()) {
      return false;
    }
    List<Message> messages = new ArrayList<>();
    Map<String, String> receipts = new HashMap<>();
    for (InMemoryMessageBus.Received received : batch) {
      messages.add(asSqs(received));
      receipts.put(received.message().messageId(), received.receiptHandle());
    }
    try {
      byte[] answer = function.invoke(EventWriter.sqs(messages, arn, "us-east-1"));
      if (BatchAnswers.unreadable(answer)) {
        // Lambda takes an answer that is not JSON for a failure of the whole batch.
        retryLater(receipts.values());
        activity.log(name, "answered what is not JSON: the batch stays on the queue");
        return true;
      }
      List<String> failures = EventWriter.batchItemFailures(answer);
      List<String> failed = failures == null ? List.of() : failures;
      if (!receipts.keySet().containsAll(failed)) {
        // Lambda takes an identifier that is not in the batch for a failure of the whole batch.
        retryLater(receipts.values());
        activity.log(
            name, "answered unknown ids " + failed + ": the whole batch stays on the queue");
        return true;
      }
      receipts.forEach(
          (id, receipt) -> {
            if (!failed.contains(id)) {
              queue.delete(receipt);
            } else if (retryAfterSeconds >= 0) {
              queue.changeVisibility(receipt, Duration.ofSeconds(retryAfterSeconds));
            }
          });
      activity.log(
          name,
          batch.size()
              + " message(s) -> "
              + (batch.size() - failed.size())
              + " done"
              + (failed.isEmpty() ? "" : ", " + failed.size() + " back on the queue"));
    } catch (RuntimeException e) {
      retryLater(receipts.values());
      activity.log(name, "function error (" + e.getMessage() + "): the batch stays on the queue");
    }
    return true;
  }

  /** Shows the messages again after --retry-after, if given (else the visibility timeout). */
  private void retryLater(java.util.Collection<String> receipts) {
    if (retryAfterSeconds >= 0) {
      receipts.forEach(r -> queue.changeVisibility(r, Duration.ofSeconds(retryAfterSeconds)));
    }
  }

  private static Message asSqs(InMemoryMessageBus.Received received) {
    QueueMessage m = received.message();
    Map<MessageSystemAttributeName, String> attributes = new HashMap<>();
    attributes.put(
        MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, Integer.toString(m.receiveCount()));
    attributes.put(
        MessageSystemAttributeName.SENT_TIMESTAMP, Long.toString(System.currentTimeMillis()));
    if (m.groupId() != null) {
      attributes.put(MessageSystemAttributeName.MESSAGE_GROUP_ID, m.groupId());
    }
    if (m.sequenceNumber() != null) {
      attributes.put(MessageSystemAttributeName.SEQUENCE_NUMBER, m.sequenceNumber());
    }
    return Message.builder()
        .messageId(m.messageId())
        .receiptHandle(received.receiptHandle())
        .body(m.body())
        .attributes(attributes)
        .md5OfBody("")
        .build();
  }
}
