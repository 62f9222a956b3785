package dev.statekit.aws.sqs;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.bus.BusException;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.MessageBus;
import dev.statekit.bus.QueueIds;
import dev.statekit.bus.SqsText;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Sends each record as one SQS message: the body is the value as text (the value's bytes in base64
 * when it is not text, or text holding a character SQS refuses, with the attribute {@code
 * statekit.encoding=base64}); attributes name the record id, the egress, the value's type, the
 * source address and the trace id ({@code statekit.trace}), characters SQS refuses in them written
 * as {@code \}{@code uXXXX}. On a FIFO queue the group is the record's key, else its source address
 * (so each address's records stay in order), and the deduplication id is the record id, so a
 * repeated delivery within SQS's five minutes is dropped.
 */
public final class SqsEgressSink implements EgressSink {

  private final MessageBus queue;

  /** Sends to the queue at {@code queueUrl}, retrying with {@link RetryPolicy#defaults()}. */
  public SqsEgressSink(SqsClient sqs, String queueUrl) {
    this(new SqsMessageBus(sqs, queueUrl, RetryPolicy.defaults()));
  }

  /** Sends through {@code queue}: any {@link MessageBus}, e.g. an in-memory one in tests. */
  public SqsEgressSink(MessageBus queue) {
    this.queue = Objects.requireNonNull(queue, "queue");
  }

  @Override
  public void deliver(List<EgressRecord> records) {
    // Every record is checked before the first is sent: a refusal refuses the whole call, which
    // is then delivered again record by record, so records sent before it would go twice.
    List<BusMessage> messages = new ArrayList<>(records.size());
    int[] sizes = new int[records.size()];
    for (int i = 0; i < records.size(); i++) {
      BusMessage message = message(records.get(i));
      sizes[i] = checked(records.get(i), message);
      messages.add(message);
    }
    // A failure names what went out all the same (the requests before, the entries SQS took
    // beside those it failed), so that only the rest is delivered again.
    List<String> sent = new ArrayList<>();
    int from = 0;
    int batchBytes = 0;
    for (int i = 0; i <= messages.size(); i++) {
      boolean full =
          i == messages.size()
              || i - from == MessageBus.MAX_BATCH
              || batchBytes + sizes[i] > queue.maxMessageBytes();
      if (full && i > from) {
        send(messages.subList(from, i), records.subList(from, i), sent);
        from = i;
        batchBytes = 0;
      }
      if (i < messages.size()) {
        batchBytes += sizes[i];
      }
    }
  }

  /** Refuses a record whose message would be larger than the queue takes. */
  @Override
  public void check(EgressRecord record) {
    checked(record, message(record));
  }

  private int checked(EgressRecord record, BusMessage message) {
    int bytes = message.sqsBytes();
    if (bytes > queue.maxMessageBytes()) {
      throw EgressException.refusing(
          record.id(),
          "Egress record "
              + record.id()
              + " takes "
              + bytes
              + " bytes, more than the queue's "
              + queue.maxMessageBytes()
              + "; send large data elsewhere (e.g. S3) and a reference through the egress");
    }
    return bytes;
  }

  @Override
  public String toString() {
    return "SqsEgressSink[" + queue + "]";
  }

  private void send(List<BusMessage> batch, List<EgressRecord> records, List<String> sent) {
    try {
      queue.send(batch);
    } catch (BusException e) {
      for (int i = 0; i < records.size(); i++) {
        if (!e.failedIndices().contains(i)) {
          sent.add(records.get(i).id());
        }
      }
      throw new EgressException(e.reason(), e.getMessage(), e).delivered(sent);
    }
    records.forEach(record -> sent.add(record.id()));
  }

  private static BusMessage message(EgressRecord record) {
    // Attributes name what the record came from, which user data may spell with characters SQS
    // refuses: those go as \\uXXXX escapes, the rest as it is.
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("statekit.record-id", SqsText.escape(record.id()));
    attributes.put("statekit.egress", SqsText.escape(record.egress().asString()));
    attributes.put("statekit.type", SqsText.escape(record.valueTypeName()));
    attributes.put("statekit.source", SqsText.escape(record.source().toString()));
    record.traceId().ifPresent(trace -> attributes.put("statekit.trace", trace));
    // Text SQS would refuse (a control character, U+FFFE, U+FFFF) goes as base64, exact, like
    // bytes that are no text: the body is the value itself, so it cannot be escaped.
    String body = record.text().filter(text -> SqsText.firstRefused(text) < 0).orElse(null);
    if (record.value().length == 0) {
      // SQS refuses an empty body.
      body = "empty";
      attributes.put("statekit.encoding", "empty");
    } else if (body == null) {
      body = Base64.getEncoder().encodeToString(record.value());
      attributes.put("statekit.encoding", "base64");
    }
    record.destination().ifPresent(d -> attributes.put("statekit.destination", SqsText.escape(d)));
    String group = record.key().orElse(record.source().toString());
    return new BusMessage(QueueIds.fit(group), QueueIds.fit(record.id()), body, attributes);
  }
}
