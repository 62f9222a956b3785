package dev.statekit.aws.sqs;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.bus.BusException;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.MessageBus;
import dev.statekit.bus.QueueIds;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/**
 * A {@link MessageBus} on an SQS queue: one SendMessageBatch per call, or as many as SQS's limit
 * for a whole request ({@link #SQS_MAX_BYTES} in all) needs. On a FIFO queue (its URL ends in
 * {@code .fifo}) the group and deduplication ids are set; a standard queue gets neither, and takes
 * each message's {@link BusMessage#delaySeconds() delay} instead (FIFO queues have no per-message
 * delay: a delayed message for one is refused before anything is sent). Entries that fail for a
 * passing reason (throttling, a server error) are sent again with {@link RetryPolicy}'s backoff.
 */
public final class SqsMessageBus implements MessageBus {
  /** SQS's limit for a message and for a whole batch: 256 KiB. */
  public static final int SQS_MAX_BYTES = QueueIds.MAX_MESSAGE_BYTES;

  private final SqsClient sqs;
  private final String queueUrl;
  private final boolean fifo;
  private final RetryPolicy retry;

  /** A bus on the queue at {@code queueUrl}, retrying with {@link RetryPolicy#defaults()}. */
  public SqsMessageBus(SqsClient sqs, String queueUrl) {
    this(sqs, queueUrl, RetryPolicy.defaults());
  }

  /** A bus on the queue at {@code queueUrl}, retrying passing failures with {@code retry}. */
  public SqsMessageBus(SqsClient sqs, String queueUrl, RetryPolicy retry) {
    this.sqs = Objects.requireNonNull(sqs, "sqs");
    this.queueUrl = Objects.requireNonNull(queueUrl, "queueUrl");
    this.retry = Objects.requireNonNull(retry, "retry");
    if (!isQueueUrl(queueUrl)) {
      throw new IllegalArgumentException(
          "'" + queueUrl + "' is not a queue URL; pass the URL SQS gave the queue (https://...)");
    }
    this.fifo = queueUrl.endsWith(".fifo");
  }

  /** The last part of the queue's URL: its name. */
  @Override
  public Optional<String> queueName() {
    String path = URI.create(queueUrl).getPath();
    String trimmed = path == null ? "" : path.replaceAll("/+$", "");
    String name = trimmed.substring(trimmed.lastIndexOf('/') + 1);
    return name.isEmpty() ? Optional.empty() : Optional.of(name);
  }

  /** Whether {@code text} is a queue URL (what SQS gave the queue), not its ARN or name. */
  public static boolean isQueueUrl(String text) {
    return text.startsWith("http://") || text.startsWith("https://");
  }

  @Override
  public void send(List<BusMessage> messages) {
    if (messages.size() > MAX_BATCH) {
      throw new IllegalArgumentException(
          "SQS takes at most " + MAX_BATCH + " messages per batch, got " + messages.size());
    }
    if (fifo) {
      for (BusMessage message : messages) {
        if (message.delaySeconds() > 0) {
          throw new IllegalArgumentException(
              "A FIFO queue ("
                  + queueUrl
                  + ") has no per-message delay; send delayed messages to a standard queue");
        }
      }
    }
    Map<String, Integer> pending = new HashMap<>();
    for (int i = 0; i < messages.size(); i++) {
      pending.put(Integer.toString(i), i);
    }
    String lastError = "";
    SdkException lastCause = null;
    for (int attempt = 1; !pending.isEmpty(); attempt++) {
      Set<String> retryable = new HashSet<>();
      Set<String> permanent = new HashSet<>();
      // Entries keep the list's order, so messages of one group are enqueued in that order; they
      // go in as many requests as SQS's limit for a whole request needs, each entry on its own
      // as in one request. On a FIFO queue, a group with an entry not taken sends no later entry
      // in this attempt: a later request must not put it ahead of the one to be sent again.
      Set<String> held = new HashSet<>();
      for (List<Integer> request : requests(messages, pending)) {
        List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
        for (int i : request) {
          if (!fifo || !held.contains(messages.get(i).groupId())) {
            entries.add(entry(Integer.toString(i), messages.get(i)));
          }
        }
        if (entries.isEmpty()) {
          continue;
        }
        try {
          SendMessageBatchResponse response =
              sqs.sendMessageBatch(b -> b.queueUrl(queueUrl).entries(entries));
          response.successful().forEach(ok -> pending.remove(ok.id()));
          for (BatchResultErrorEntry failed : response.failed()) {
            boolean refused =
                Boolean.TRUE.equals(failed.senderFault())
                    && !RetryPolicy.isPassingErrorCode(failed.code());
            (refused ? permanent : retryable).add(failed.id());
            held.add(messages.get(Integer.parseInt(failed.id())).groupId());
            lastError = failed.code() + ": " + failed.message();
          }
        } catch (SdkException e) {
          lastCause = e;
          lastError = e.getMessage();
          for (SendMessageBatchRequestEntry entry : entries) {
            (RetryPolicy.isPassing(e) ? retryable : permanent).add(entry.id());
            held.add(messages.get(Integer.parseInt(entry.id())).groupId());
          }
        }
      }
      if (!permanent.isEmpty() || (!retryable.isEmpty() && attempt >= retry.maxAttempts())) {
        Set<Integer> failed = new HashSet<>();
        pending.values().forEach(failed::add);
        throw new BusException(
            permanent.isEmpty()
                ? BusException.Reason.UNAVAILABLE
                : BusException.Reason.INVALID_REQUEST,
            "SQS did not take "
                + failed.size()
                + " of "
                + messages.size()
                + " messages for "
                + queueUrl
                + ": "
                + lastError,
            failed,
            lastCause);
      }
      if (!pending.isEmpty()) {
        retry.pause(attempt);
      }
    }
  }

  /**
   * The positions of the {@code pending} messages, in their order, as requests SQS takes: a
   * SendMessageBatch holds at most {@link #SQS_MAX_BYTES} in all (BatchRequestTooLong refuses the
   * whole request otherwise), counted as for one message (body and attributes). Ten due timers or
   * dead letters of 100 KB each are sent in several requests, not refused together on every try.
   */
  private static List<List<Integer>> requests(
      List<BusMessage> messages, Map<String, Integer> pending) {
    List<List<Integer>> requests = new ArrayList<>();
    List<Integer> request = new ArrayList<>();
    long bytes = 0;
    for (int i = 0; i < messages.size(); i++) {
      if (!pending.containsKey(Integer.toString(i))) {
        continue;
      }
      int size = messages.get(i).sqsBytes();
      if (!request.isEmpty() && bytes + size > SQS_MAX_BYTES) {
        requests.add(request);
        request = new ArrayList<>();
        bytes = 0;
      }
      request.add(i);
      bytes += size;
    }
    if (!request.isEmpty()) {
      requests.add(request);
    }
    return requests;
  }

  @Override
  public int maxMessageBytes() {
    return SQS_MAX_BYTES;
  }

  @Override
  public String toString() {
    return "SqsMessageBus[" + queueUrl + "]";
  }

  private SendMessageBatchRequestEntry entry(String id, BusMessage message) {
    SendMessageBatchRequestEntry.Builder entry =
        SendMessageBatchRequestEntry.builder().id(id).messageBody(message.body());
    if (fifo) {
      entry.messageGroupId(message.groupId()).messageDeduplicationId(message.deduplicationId());
    } else if (message.delaySeconds() > 0) {
      entry.delaySeconds(message.delaySeconds());
    }
    if (!message.attributes().isEmpty()) {
      Map<String, MessageAttributeValue> attributes = new HashMap<>();
      message
          .attributes()
          .forEach(
              (name, value) ->
                  attributes.put(
                      name,
                      MessageAttributeValue.builder()
                          .dataType("String")
                          .stringValue(value)
                          .build()));
      entry.messageAttributes(attributes);
    }
    return entry.build();
  }
}
