package dev.statekit.runtime.internal;

import dev.statekit.runtime.bus.BusMessage;
import dev.statekit.runtime.bus.QueueIds;
import dev.statekit.runtime.internal.data.DeadLetter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Dead letters: the message as it came (an ingress envelope, so it can be sent to the ingress queue
 * again once fixed) with its error in message attributes.
 */
final class DeadLetters {
  private static final int MAX_ERROR_LENGTH = 2000;

  private DeadLetters() {}

  /** The dead letter of one invocation of a queue message. */
  static DeadLetter of(Delivery delivery, InboundInvocation inbound, RuntimeException error) {
    String body =
        inbound.bundleSender == null && inbound.timer == null
            ? delivery.body
            : EnvelopeCodec.renderText(
                inbound.target(), inbound.argument.typeName(), inbound.argument.value(), null);
    int index = delivery.invocations.indexOf(inbound);
    return DeadLetter.newBuilder()
        .setGroupId(QueueIds.groupId(inbound.target()))
        .setDeduplicationId("d-" + QueueIds.sha256(delivery.messageId + "|" + index))
        .setBody(body)
        .setErrorType(error.getClass().getName())
        .setErrorMessage(truncate(String.valueOf(error.getMessage())))
        .setAttempts(delivery.attempts)
        .setSourceMessageId(delivery.messageId)
        .setTarget(inbound.target().toString())
        .build();
  }

  /** The dead letter of a queue message that could not be read at all. */
  static DeadLetter unreadable(Delivery delivery) {
    return DeadLetter.newBuilder()
        .setGroupId(delivery.groupId == null ? "unreadable" : delivery.groupId)
        .setDeduplicationId("d-" + QueueIds.sha256(delivery.messageId))
        .setBody(delivery.body)
        .setErrorType(delivery.invalid.getClass().getName())
        .setErrorMessage(truncate(String.valueOf(delivery.invalid.getMessage())))
        .setAttempts(delivery.attempts)
        .setSourceMessageId(delivery.messageId)
        .build();
  }

  static BusMessage message(DeadLetter letter) {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("statekit.error", letter.getErrorMessage());
    attributes.put("statekit.error-type", letter.getErrorType());
    attributes.put("statekit.attempts", Integer.toString(letter.getAttempts()));
    attributes.put("statekit.message-id", letter.getSourceMessageId());
    if (!letter.getTarget().isEmpty()) {
      attributes.put("statekit.target", letter.getTarget());
    }
    return new BusMessage(
        letter.getGroupId(), letter.getDeduplicationId(), letter.getBody(), attributes);
  }

  private static String truncate(String text) {
    return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH) + "...";
  }
}
