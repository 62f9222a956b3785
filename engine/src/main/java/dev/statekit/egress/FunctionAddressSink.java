package dev.statekit.egress;

import dev.statekit.bus.BusException;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.MessageBus;
import dev.statekit.bus.QueueIds;
import dev.statekit.function.Address;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Delivers egress records to a function: each record becomes a message to {@link #target()} with
 * the record's value, so an egress can feed another function (an aggregator, an auditor) without
 * the sender knowing.
 *
 * <p>Inside the runtime, records for this sink travel like the sending function's own messages:
 * through its outbox, in order, applied exactly once. {@link #deliver} on its own sends them to the
 * queue as ingress messages, each with the record's id as its idempotency key: a record delivered
 * again is applied once for the runtime's key retention (7 hours by default), not only within SQS's
 * five-minute window.
 */
public final class FunctionAddressSink implements EgressSink {
  private final Address target;
  private final MessageBus queue;

  /** Delivers to {@code target} through {@code queue}, the runtime's ingress queue. */
  public FunctionAddressSink(Address target, MessageBus queue) {
    this.target = Objects.requireNonNull(target, "target");
    this.queue = Objects.requireNonNull(queue, "queue");
  }

  /** The function address records go to. */
  public Address target() {
    return target;
  }

  @Override
  public void deliver(List<EgressRecord> records) {
    // Every record is checked before the first is sent: a refusal refuses the whole call.
    List<BusMessage> messages = new ArrayList<>(records.size());
    for (EgressRecord record : records) {
      messages.add(checked(record));
    }
    for (int from = 0; from < messages.size(); from += MessageBus.MAX_BATCH) {
      List<BusMessage> batch =
          messages.subList(from, Math.min(messages.size(), from + MessageBus.MAX_BATCH));
      try {
        queue.send(batch);
      } catch (BusException e) {
        throw new EgressException(
            e.reason(), "Records for " + target + " were not sent: " + e.getMessage(), e);
      }
    }
  }

  /** Refuses a record whose envelope would be larger than the queue takes. */
  @Override
  public void check(EgressRecord record) {
    checked(record);
  }

  private BusMessage checked(EgressRecord record) {
    // The record's id is the envelope's idempotency key too: SQS drops a repeat only within its
    // five-minute window, the runtime for as long as it keeps its keys.
    String id = QueueIds.fit(record.id());
    BusMessage message =
        new BusMessage(
            QueueIds.groupId(target),
            id,
            EnvelopeCodec.renderText(target, record.valueTypeName(), record.value(), id));
    int bytes = message.sqsBytes();
    if (bytes > queue.maxMessageBytes()) {
      throw EgressException.refusing(
          record.id(),
          "Egress record "
              + record.id()
              + " for "
              + target
              + " makes a message of "
              + bytes
              + " bytes, more than the queue's "
              + queue.maxMessageBytes()
              + "; send large data elsewhere (e.g. S3) and a reference in the message");
    }
    return message;
  }

  @Override
  public String toString() {
    return "FunctionAddressSink[" + target + "]";
  }
}
