package dev.statekit.bus;

import java.util.Map;
import java.util.Objects;

/**
 * A message for a queue: its FIFO message group, its deduplication id (a repeat with the same id is
 * dropped by the queue within its deduplication window), the body, and string attributes.
 *
 * @param groupId the message group; messages of one group are delivered in order
 * @param deduplicationId the same for every send of the same message
 * @param body the message body (text)
 * @param attributes message attributes, e.g. the error of a dead letter
 */
public record BusMessage(
    String groupId, String deduplicationId, String body, Map<String, String> attributes) {
  /** Checks the parts and copies the attributes. */
  public BusMessage {
    Objects.requireNonNull(groupId, "groupId");
    Objects.requireNonNull(deduplicationId, "deduplicationId");
    Objects.requireNonNull(body, "body");
    attributes = Map.copyOf(attributes);
  }

  /** A message without attributes. */
  public BusMessage(String groupId, String deduplicationId, String body) {
    this(groupId, deduplicationId, body, Map.of());
  }
}
