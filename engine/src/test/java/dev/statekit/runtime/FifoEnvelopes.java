package dev.statekit.runtime;

import dev.statekit.bus.QueueMessage;

/** FIFO queue messages carrying one ingress envelope each, as the deadline tests send them. */
final class FifoEnvelopes {
  private FifoEnvelopes() {}

  /**
   * Message {@code id} to {@code target} (ns/type/id) in the group named by the target's id, with
   * the envelope's idempotency key {@code id}: a string value "x".
   */
  static QueueMessage message(String id, String target, int sequence, int attempts) {
    String body =
        "{\"target\":\""
            + target
            + "\",\"typename\":\"io.statefun.types/string\",\"value\":\"x\",\"id\":\""
            + id
            + "\"}";
    String group = target.substring(target.lastIndexOf('/') + 1);
    return new QueueMessage(id, body, group, String.format("%020d", sequence), attempts);
  }
}
