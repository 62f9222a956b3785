package dev.statekit.runtime.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.bus.BusException;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.MessageBus;
import dev.statekit.bus.QueueIds;
import dev.statekit.bus.SqsText;
import dev.statekit.function.Address;
import dev.statekit.runtime.internal.data.DeadLetter;
import dev.statekit.runtime.internal.data.OutgoingBundle;
import dev.statekit.runtime.internal.data.OutgoingEgress;
import dev.statekit.runtime.internal.data.Payload;
import dev.statekit.telemetry.Log;
import dev.statekit.telemetry.Metric;
import dev.statekit.telemetry.Metrics;
import dev.statekit.telemetry.Telemetry;
import dev.statekit.telemetry.TraceIds;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Dead letters. A message that was not applied goes as an ingress envelope, so it can be sent to
 * the ingress queue again once fixed, with an idempotency key: its own if it had one, else one the
 * runtime makes from the message's identity ({@code statekit:dl:...}), so that sending it again
 * twice applies it once. The key says nothing of whether the original was applied: {@code
 * statekit.applied} does ("no", or "unknown" when the store could not tell). An egress record that
 * could not be delivered goes as JSON naming its egress and record id. The error is in message
 * attributes. Characters SQS refuses go as JSON escapes in the body, as {@code \}{@code uXXXX} in
 * attributes ({@link SqsText#escape}), so a letter is never refused for what a user's data holds.
 */
final class DeadLetters {
  private static final Log LOG =
      Log.named(dev.statekit.runtime.FunctionRuntime.DEAD_LETTERS_LOGGER);

  private static final int MAX_ERROR_LENGTH = 2000;

  /**
   * The most UTF-8 bytes the error attribute takes once escaped, and any other attribute made of
   * user data ({@link #MAX_SHOWN_BYTES}): the attributes of a dead letter must fit in the margin a
   * queue message keeps beside its body ({@link RuntimeSettings#MESSAGE_MARGIN}, 8 KiB), which is
   * all a send checks ({@link DeadLetterSize}). Escaped, a character SQS refuses takes 6 bytes, so
   * 2,000 characters of an error could take 12 KB.
   */
  static final int MAX_ERROR_BYTES = 4000;

  static final int MAX_SHOWN_BYTES = 1000;
  static final String MESSAGE = "message";
  static final String EGRESS = "egress";

  private DeadLetters() {}

  /**
   * The dead letter of one invocation of a queue message.
   *
   * @param applied "no", or "unknown" when the store could not say whether it was applied
   */
  static DeadLetter of(
      Delivery delivery, InboundInvocation inbound, RuntimeException error, String applied) {
    String basis = dedupBasis(delivery, inbound);
    return DeadLetter.newBuilder()
        .setGroupId(QueueIds.groupId(inbound.target()))
        .setDeduplicationId("d-" + QueueIds.sha256(basis))
        .setBody(
            EnvelopeCodec.renderText(
                inbound.target(),
                inbound.argument.typeName(),
                inbound.argument.value(),
                delivery.idempotencyKey != null ? delivery.idempotencyKey : resendKey(basis),
                inbound.traceId))
        .setTraceId(inbound.traceId == null ? "" : inbound.traceId)
        .setErrorType(error.getClass().getName())
        .setErrorMessage(truncate(String.valueOf(error.getMessage())))
        .setAttempts(delivery.attempts)
        .setSourceMessageId(delivery.messageId)
        .setTarget(inbound.target().toString())
        .setKind(MESSAGE)
        .setApplied(applied)
        .build();
  }

  /** The dead letter of a queue message that could not be read, or whose function is unknown. */
  static DeadLetter unreadable(Delivery delivery) {
    InboundInvocation fired = firedTimer(delivery);
    // Whether a deploy registers its target decides which fault an envelope is refused for first,
    // so its letter is the same either way, and the same as on the other paths of a message.
    String basis = fired != null ? fired.timer.asString() : queueBasis(delivery, 0);
    return DeadLetter.newBuilder()
        .setGroupId(delivery.groupId == null ? "unreadable" : delivery.groupId)
        .setDeduplicationId("d-" + QueueIds.sha256(basis))
        .setBody(fired != null ? delivery.body : withKey(delivery.body, resendKey(basis)))
        .setTraceId(
            fired != null && fired.traceId != null
                ? fired.traceId
                : delivery.messageId == null ? "" : TraceIds.derivedFrom(delivery.messageId))
        .setErrorType(delivery.invalid.getClass().getName())
        .setErrorMessage(truncate(String.valueOf(delivery.invalid.getMessage())))
        .setAttempts(delivery.attempts)
        .setSourceMessageId(delivery.messageId)
        .setTarget(delivery.target == null ? "" : delivery.target.toString())
        .setKind(MESSAGE)
        // A target no function matches may be one a deploy removed after applying this message.
        .setApplied(
            delivery.invalid instanceof dev.statekit.bus.InvalidEnvelopeException invalid
                    && invalid.isTargetUnknown()
                ? "unknown"
                : "no")
        .build();
  }

  /**
   * An envelope's text with {@code key} as its {@code id}, unless it names one of its own; any
   * other body (not JSON, not an object, a runtime message) as it came.
   */
  private static String withKey(String body, String key) {
    try {
      if (!(EnvelopeCodec.tree(body)
              instanceof com.fasterxml.jackson.databind.node.ObjectNode object)
          || object.has("statekit")
          || object.hasNonNull("id")) {
        return body;
      }
      object.put("id", key);
      return dev.statekit.json.PlainJson.text(object);
    } catch (RuntimeException e) {
      return body;
    }
  }

  /** The fired timer a delivery carries, or {@code null}. */
  static InboundInvocation firedTimer(Delivery delivery) {
    for (InboundInvocation inbound : delivery.invocations) {
      if (inbound.timer != null) {
        return inbound;
      }
    }
    return null;
  }

  /**
   * The dead letters of what of {@code pending} could not be delivered: a message of each bundle
   * not sent (its send may have gone out unanswered: {@code statekit.applied} says "unknown"), a
   * record of each egress record. Dead letters that could not be sent can only be sent again.
   */
  static List<DeadLetter> ofUndelivered(
      PendingOutbox pending, Undelivered undelivered, int attempts) {
    List<DeadLetter> letters = new ArrayList<>();
    String error = truncate(String.valueOf(undelivered.reason()));
    for (OutgoingBundle bundle : pending.outbox().getBundlesList()) {
      if (!undelivered.bundles.contains(
          Undelivered.bundleKey(bundle.getTargetType(), bundle.getTargetId(), bundle.getPart()))) {
        continue;
      }
      Address target = Address.of(TypeName.parse(bundle.getTargetType()), bundle.getTargetId());
      String id =
          bundleId(
              pending.address(),
              pending.outbox().getIncarnation(),
              pending.version(),
              target,
              bundle.getPart());
      List<Payload> payloads = bundle.getPayloadsList();
      for (int i = 0; i < payloads.size(); i++) {
        String basis = id + "|" + i;
        letters.add(
            DeadLetter.newBuilder()
                .setGroupId(QueueIds.groupId(target))
                .setDeduplicationId("d-" + QueueIds.sha256(basis))
                .setBody(
                    EnvelopeCodec.renderText(
                        target,
                        payloads.get(i).getTypeName(),
                        payloads.get(i).getValue().toByteArray(),
                        resendKey(basis),
                        payloads.get(i).getTraceId()))
                .setTraceId(payloads.get(i).getTraceId())
                .setErrorType(Undelivered.class.getSimpleName())
                .setErrorMessage("Could not be delivered: " + error)
                .setAttempts(attempts)
                .setTarget(target.toString())
                .setKind(MESSAGE)
                // A send whose answer was lost may have gone out: its key tells on a re-send.
                .setApplied("unknown")
                .build());
      }
    }
    List<OutgoingEgress> egress = pending.outbox().getEgressList();
    for (int index : undelivered.egress) {
      OutgoingEgress record = egress.get(index);
      String recordId = OutboxDelivery.recordId(pending, index);
      ObjectNode body = JsonNodeFactory.instance.objectNode();
      body.put("egress", record.getEgress());
      body.put("id", recordId);
      body.put("source", pending.address().toString());
      body.put("typename", record.getTypeName());
      EnvelopeCodec.putValue(body, record.getTypeName(), record.getValue().toByteArray());
      letters.add(
          DeadLetter.newBuilder()
              .setGroupId(QueueIds.fit("egress/" + record.getEgress()))
              .setDeduplicationId("d-" + QueueIds.sha256(recordId))
              .setBody(body.toString())
              .setTraceId(record.getTraceId())
              .setErrorType(Undelivered.class.getSimpleName())
              .setErrorMessage("Could not be delivered: " + error)
              .setAttempts(attempts)
              .setKind(EGRESS)
              // A sink whose answer was lost may have taken it: its record id tells.
              .setApplied("unknown")
              .setEgress(record.getEgress())
              .setRecordId(recordId)
              .build());
    }
    return letters;
  }

  /**
   * Sends {@code letters} to the dead-letter queue, ten to a request, and answers the owners (one
   * per letter, as {@code owners} lists them) of the letters it refused.
   */
  static <T> java.util.Set<T> send(MessageBus queue, List<BusMessage> letters, List<T> owners) {
    java.util.Set<T> refused = new java.util.LinkedHashSet<>();
    for (int from = 0; from < letters.size(); from += MessageBus.MAX_BATCH) {
      int to = Math.min(letters.size(), from + MessageBus.MAX_BATCH);
      try {
        queue.send(letters.subList(from, to));
      } catch (BusException e) {
        for (int i : e.failedIndices()) {
          refused.add(owners.get(from + i));
        }
      } catch (RuntimeException e) {
        refused.addAll(owners.subList(from, to));
      }
    }
    return refused;
  }

  /**
   * The queue message of a dead letter; each one made is counted and logged (at WARN, with its
   * target and trace id as the line's fields) as it goes out.
   */
  static BusMessage message(DeadLetter letter) {
    Metrics.add(Metric.DEAD_LETTERS, 1);
    try (Telemetry.Restore address =
            Telemetry.with(
                Telemetry.ADDRESS, letter.getTarget().isEmpty() ? null : letter.getTarget());
        Telemetry.Restore trace =
            Telemetry.with(
                Telemetry.TRACE_ID, letter.getTraceId().isEmpty() ? null : letter.getTraceId())) {
      LOG.warn(
          "Dead letter ("
              + letter.getKind()
              + (letter.getEgress().isEmpty() ? "" : " to egress " + letter.getEgress())
              + ", after "
              + letter.getAttempts()
              + " attempt(s)): "
              + letter.getErrorType()
              + ": "
              + letter.getErrorMessage());
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("statekit.error", shown(letter.getErrorMessage(), MAX_ERROR_BYTES));
    attributes.put("statekit.error-type", letter.getErrorType());
    attributes.put("statekit.attempts", Integer.toString(letter.getAttempts()));
    if (!letter.getTraceId().isEmpty()) {
      attributes.put("statekit.trace", letter.getTraceId());
    }
    if (!letter.getSourceMessageId().isEmpty()) {
      attributes.put("statekit.message-id", letter.getSourceMessageId());
    }
    if (!letter.getTarget().isEmpty()) {
      attributes.put("statekit.target", shown(letter.getTarget(), MAX_SHOWN_BYTES));
    }
    if (!letter.getKind().isEmpty()) {
      attributes.put("statekit.kind", letter.getKind());
    }
    if (!letter.getApplied().isEmpty()) {
      attributes.put("statekit.applied", letter.getApplied());
    }
    if (!letter.getEgress().isEmpty()) {
      attributes.put("statekit.egress", shown(letter.getEgress(), MAX_SHOWN_BYTES));
      attributes.put("statekit.record-id", shown(letter.getRecordId(), MAX_SHOWN_BYTES));
    }
    // Escaped here, as it goes out, and not only where it is made: a letter committed in an outbox
    // by an earlier version may hold characters SQS refuses, and would be refused forever.
    return new BusMessage(
        letter.getGroupId(),
        letter.getDeduplicationId(),
        SqsText.escape(letter.getBody()),
        attributes);
  }

  /**
   * What identifies an invocation's dead letter across its message's deliveries, and across the
   * paths that may dead-letter it (its sender giving up on delivering it, its receiver on applying
   * it), so the dead-letter queue keeps one: a bundled message by its bundle, a fired one by its
   * timer, any other by its queue position.
   */
  private static String dedupBasis(Delivery delivery, InboundInvocation inbound) {
    if (inbound.bundleSender != null) {
      return bundleId(
              inbound.bundleSender,
              inbound.bundleIncarnation,
              inbound.bundleVersion,
              inbound.target(),
              inbound.bundlePart)
          + "|"
          + inbound.bundleIndex;
    }
    if (inbound.timer != null) {
      return inbound.timer.asString();
    }
    return queueBasis(delivery, delivery.invocations.indexOf(inbound));
  }

  /** What identifies invocation {@code index} of a queue message on every delivery of it. */
  private static String queueBasis(Delivery delivery, int index) {
    return (delivery.hasQueueSequence()
            ? delivery.groupId + ":" + delivery.sequence
            : String.valueOf(delivery.messageId))
        + "|"
        + index;
  }

  /** {@code <sender>|<incarnation>|<version>|<target>|<part>}: a bundle's id, the same anywhere. */
  static String bundleId(Address sender, long incarnation, long version, Address target, int part) {
    return sender + "|" + incarnation + "|" + version + "|" + target + "|" + part;
  }

  /**
   * The key a re-sent dead letter carries when its message had none: made from what identifies it
   * across deliveries and paths (so every dead letter of one message carries the same key), and
   * never checked against the marks of the message's origin, which later messages move past.
   */
  private static String resendKey(String dedupBasis) {
    return "statekit:dl:" + QueueIds.sha256(dedupBasis);
  }

  /**
   * {@code text} as an attribute shows it: escaped ({@link SqsText#escape}), and cut with "..." to
   * at most {@code maxBytes} bytes in UTF-8 (never inside a character). The body carries what the
   * attributes show of the message (its target, its record id) exactly.
   */
  static String shown(String text, int maxBytes) {
    String escaped = SqsText.escape(text);
    if (escaped.length() * 3L <= maxBytes
        || escaped.getBytes(StandardCharsets.UTF_8).length <= maxBytes) {
      return escaped;
    }
    int bytes = 0;
    int end = 0;
    while (end < escaped.length()) {
      int c = escaped.codePointAt(end);
      int size = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (bytes + size > maxBytes - 3) {
        break;
      }
      bytes += size;
      end += Character.charCount(c);
    }
    return escaped.substring(0, end) + "...";
  }

  private static String truncate(String text) {
    return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH) + "...";
  }
}
