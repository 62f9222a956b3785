package dev.statekit.runtime.internal;

import dev.statekit.function.Address;
import java.util.ArrayList;
import java.util.List;

/**
 * One unit the caller hands in and gets an answer for: a queue message (which may carry several
 * invocations, a bundle) or a direct invocation. A delivery that could not be read carries the
 * error instead of invocations.
 */
final class Delivery {
  final int position;
  final boolean fromQueue;
  final String messageId;
  final String groupId;
  final String sequence;
  final int attempts;
  final String idempotencyKey;
  final String body;
  final List<InboundInvocation> invocations = new ArrayList<>();
  Address target;
  RuntimeException invalid;

  DeliveryOutcome outcome;
  String error;

  private Delivery(
      int position,
      boolean fromQueue,
      String messageId,
      String groupId,
      String sequence,
      int attempts,
      String idempotencyKey,
      String body) {
    this.position = position;
    this.fromQueue = fromQueue;
    this.messageId = messageId;
    this.groupId = groupId;
    this.sequence = sequence;
    this.attempts = attempts;
    this.idempotencyKey = idempotencyKey;
    this.body = body;
  }

  static Delivery queued(
      int position, String messageId, String groupId, String sequence, int attempts, String body) {
    return new Delivery(position, true, messageId, groupId, sequence, attempts, null, body);
  }

  static Delivery direct(int position, String idempotencyKey) {
    return new Delivery(position, false, null, null, null, 1, idempotencyKey, null);
  }

  boolean hasQueueSequence() {
    return groupId != null && sequence != null;
  }

  void settle(DeliveryOutcome outcome, String error) {
    this.outcome = outcome;
    this.error = error;
  }

  @Override
  public String toString() {
    return fromQueue ? "queue message " + messageId : "direct invocation " + position;
  }
}
