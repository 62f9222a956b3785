package dev.statekit.local.emulation;

import dev.statekit.aws.events.EventWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * What Lambda's SQS event source mapping does, for one queue: receive up to the batch size (waiting
 * up to the batching window to fill it), invoke the function with an SQS event, then delete what
 * succeeded. Messages named in {@code batchItemFailures}, or the whole batch when the function
 * fails or (with ReportBatchItemFailures) answers what is not JSON, stay on the queue: they come
 * back when their visibility timeout ends, and the queue's redrive policy moves a message to the
 * dead-letter queue after {@code maxReceiveCount} receives.
 */
public final class SqsPoller extends PollLoop {
  /** Lambda's 6 MB invocation payload, less room for the event's own fields. */
  private static final long EVENT_BUDGET = 6L * 1024 * 1024 - 64 * 1024;

  private final SqsClient sqs;
  private final Settings settings;
  private final Invoker function;
  private final Activity activity;

  /**
   * Messages received for a batch that its payload could not hold: still in flight, they open the
   * next batch, in the order received (a FIFO group's order holds: its later messages wait behind
   * them, in flight too).
   */
  private final List<Message> carried = new ArrayList<>();

  /**
   * How the mapping is configured.
   *
   * @param name the event's name, for the log
   * @param queueUrl the queue
   * @param queueArn the queue's ARN, as events carry it
   * @param region the region events carry
   * @param batchSize the most messages per invocation
   * @param batchingWindowSeconds how long to wait to fill a batch (0: invoke at once)
   * @param reportsFailures whether the function answers {@code batchItemFailures}
   * @param retryAfterSeconds if not negative, failed messages become visible again after this
   *     (Lambda leaves them for the queue's visibility timeout)
   */
  public record Settings(
      String name,
      String queueUrl,
      String queueArn,
      String region,
      int batchSize,
      int batchingWindowSeconds,
      boolean reportsFailures,
      int retryAfterSeconds) {}

  /** Polls for {@code function}. */
  public SqsPoller(SqsClient sqs, Settings settings, Invoker function, Activity activity) {
    super(settings.name(), activity, 0);
    this.sqs = sqs;
    this.settings = settings;
    this.function = function;
    this.activity = activity;
  }

  @Override
  protected boolean pollOnce() {
    // receive() long-polls for a second when the queue is empty: no pause is needed between.
    List<Message> batch = receive();
    if (!batch.isEmpty()) {
      process(batch);
    }
    return true;
  }

  /**
   * One batch: up to the batch size and within Lambda's 6 MB payload, waiting at most the batching
   * window for more. A message received that the payload cannot hold opens the next batch.
   */
  List<Message> receive() {
    List<Message> batch = new ArrayList<>();
    long[] bytes = {0};
    List<Message> before = new ArrayList<>(carried);
    carried.clear();
    before.forEach(m -> take(m, batch, bytes));
    long deadline = System.currentTimeMillis() + settings.batchingWindowSeconds() * 1000L;
    while (running()
        && carried.isEmpty()
        && batch.size() < settings.batchSize()
        && (batch.isEmpty() || System.currentTimeMillis() < deadline)) {
      int wanted = Math.min(10, settings.batchSize() - batch.size());
      long left = Math.max(0, deadline - System.currentTimeMillis());
      int wait = batch.isEmpty() ? 1 : (int) Math.min(1, left / 1000);
      List<Message> received =
          sqs.receiveMessage(
                  b ->
                      b.queueUrl(settings.queueUrl())
                          .maxNumberOfMessages(wanted)
                          .waitTimeSeconds(wait)
                          .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                          .messageAttributeNames("All"))
              .messages();
      received.forEach(m -> take(m, batch, bytes));
      if (batch.isEmpty()) {
        break;
      }
    }
    return batch;
  }

  /**
   * Adds {@code m} to the batch if its payload holds it (a first message always), else carries it.
   */
  private void take(Message m, List<Message> batch, long[] bytes) {
    // A carried message whose visibility ran out comes again: it stays once, under its newest
    // receipt handle (the one SQS deletes it by).
    for (List<Message> held : List.of(batch, carried)) {
      for (int i = 0; i < held.size(); i++) {
        if (held.get(i).messageId().equals(m.messageId())) {
          held.set(i, m);
          return;
        }
      }
    }
    long size = EventWriter.sqs(List.of(m), settings.queueArn(), settings.region()).length;
    if (!carried.isEmpty() || (!batch.isEmpty() && bytes[0] + size > EVENT_BUDGET)) {
      carried.add(m);
      return;
    }
    batch.add(m);
    bytes[0] += size;
  }

  /** Invokes the function with one batch and settles each message. */
  void process(List<Message> batch) {
    byte[] event = EventWriter.sqs(batch, settings.queueArn(), settings.region());
    List<Message> done = new ArrayList<>(batch);
    List<Message> failed = new ArrayList<>();
    String outcome;
    try {
      byte[] answer = function.invoke(event);
      List<String> failures = EventWriter.batchItemFailures(answer);
      Set<String> ids = new HashSet<>();
      batch.forEach(m -> ids.add(m.messageId()));
      if (settings.reportsFailures() && BatchAnswers.unreadable(answer)) {
        // Lambda takes an answer that is not JSON for a failure of the whole batch.
        failed.addAll(batch);
        done.clear();
        outcome = "answered what is not JSON: the whole batch stays on the queue";
      } else if (settings.reportsFailures() && failures != null && !failures.isEmpty()) {
        if (!ids.containsAll(failures)) {
          // Lambda treats an identifier that is not in the batch as a failure of the whole batch.
          failed.addAll(batch);
          done.clear();
          outcome = "answered unknown ids " + failures + ": the whole batch stays on the queue";
        } else {
          for (Message m : batch) {
            if (failures.contains(m.messageId())) {
              failed.add(m);
              done.remove(m);
            }
          }
          outcome = done.size() + " done, " + failed.size() + " back on the queue";
        }
      } else {
        outcome = done.size() + " done";
      }
    } catch (RuntimeException e) {
      failed.addAll(batch);
      done.clear();
      outcome = "function error (" + e.getMessage() + "): the whole batch stays on the queue";
    }
    delete(done);
    retryLater(failed);
    activity.log(settings.name(), batch.size() + " message(s) -> " + outcome);
  }

  private void delete(List<Message> messages) {
    for (int i = 0; i < messages.size(); i += 10) {
      List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
      for (Message m : messages.subList(i, Math.min(messages.size(), i + 10))) {
        entries.add(
            DeleteMessageBatchRequestEntry.builder()
                .id(Integer.toString(entries.size()))
                .receiptHandle(m.receiptHandle())
                .build());
      }
      sqs.deleteMessageBatch(b -> b.queueUrl(settings.queueUrl()).entries(entries));
    }
  }

  private void retryLater(List<Message> messages) {
    if (settings.retryAfterSeconds() < 0) {
      return;
    }
    for (Message m : messages) {
      sqs.changeMessageVisibility(
          b ->
              b.queueUrl(settings.queueUrl())
                  .receiptHandle(m.receiptHandle())
                  .visibilityTimeout(settings.retryAfterSeconds()));
    }
  }
}
