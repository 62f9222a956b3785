package dev.statekit.runtime.internal;

import dev.statekit.function.Address;
import java.util.ArrayList;
import java.util.List;

/**
 * One unit the caller hands in and gets an answer for: a queue message (which may carry several
 * invocations, a bundle) or a direct invocation. A delivery that could not be read carries the
 * error instead of invocations. An ingress envelope's idempotency key is honoured on either path.
 */
final class Delivery {
  final int position;
  final boolean fromQueue;
  final String messageId;
  final String groupId;
  final String sequence;
  final int attempts;
  String idempotencyKey;
  final String body;
  final List<InboundInvocation> invocations = new ArrayList<>();
  Address target;
  RuntimeException invalid;

  DeliveryOutcome outcome;
  String error;

  /**
   * Failed only because the invocations before it filled one commit of its address ({@link
   * NoRoomInCommit}): the batch runs it again in another round.
   */
  boolean noRoom;

  /**
   * Run again in a later round of its batch: invocations of it (a bundle's first parts) may have
   * been committed by a round before, so each is checked against its sender's marks.
   */
  boolean rerun;

  /** A request-reply call: its invocation's reply is answered, and kept with its key. */
  boolean call;

  /** When a call's caller stops waiting, on the runtime's clock (epoch ms); 0: no deadline. */
  long callDeadlineMillis;

  /** A settled call's answer (the reply, or that none was sent); {@code null} if none is known. */
  dev.statekit.runtime.internal.data.CallReply reply;

  /** The call failed because its address was busy: retrying with the same key may succeed. */
  boolean busy;

  /** The call failed because its function threw. */
  boolean functionFailed;

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

  /**
   * Whether this is a queue message's last attempt: whatever fails now, it must not come back
   * again, or the queue's own redrive would move it to the dead-letter queue without its error.
   */
  boolean lastAttempt(int maxAttempts) {
    return fromQueue && attempts >= maxAttempts;
  }

  void settle(DeliveryOutcome outcome, String error) {
    this.outcome = outcome;
    this.error = error;
    this.noRoom = false;
  }

  @Override
  public String toString() {
    return fromQueue ? "queue message " + messageId : "direct invocation " + position;
  }
}
