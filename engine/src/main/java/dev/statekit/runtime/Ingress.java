package dev.statekit.runtime;

import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.QueueIds;
import dev.statekit.function.Address;
import dev.statekit.function.Message;

/**
 * For producers: how to put a message for a function on the ingress queue or into a direct invoke.
 * Send {@link #envelope(Message)} as the body with {@link #groupId(Address)} as the FIFO message
 * group (and a deduplication id of your choice):
 *
 * <pre>{@code
 * Message hello = MessageBuilder.forAddress(Greeter.TYPE, "ada").withValue("hi").build();
 * sqs.sendMessage(b -> b.queueUrl(url)
 *     .messageBody(Ingress.envelope(hello))
 *     .messageGroupId(Ingress.groupId(hello.targetAddress()))
 *     .messageDeduplicationId(myUniqueId));
 * }</pre>
 */
public final class Ingress {
  private Ingress() {}

  /**
   * The JSON envelope {@code {"target": ..., "typename": ..., "value": ...}} of {@code message}; a
   * built-in type's value is written as plain JSON, any other in base64.
   */
  public static String envelope(Message message) {
    return envelope(message, null);
  }

  /**
   * The envelope with an idempotency key: a direct invoke repeated with the same key is applied
   * once.
   *
   * @param id the key, or {@code null} for none
   */
  public static String envelope(Message message, String id) {
    return EnvelopeCodec.renderText(
        message.targetAddress(), message.valueTypeName().asString(), message.rawValue(), id);
  }

  /**
   * The FIFO message group for messages to {@code target}: its address, hashed when SQS would not
   * take it as a group id.
   */
  public static String groupId(Address target) {
    return QueueIds.groupId(target);
  }
}
