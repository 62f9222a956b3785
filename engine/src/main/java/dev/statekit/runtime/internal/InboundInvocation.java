package dev.statekit.runtime.internal;

import dev.statekit.bus.QueueIds;
import dev.statekit.function.Address;
import dev.statekit.invocation.TypedValue;
import dev.statekit.runtime.store.TimerKey;

/**
 * One invocation to run: a message for one address, with what identifies it for deduplication. A
 * plain ingress message is identified by its delivery (queue sequence number or idempotency key); a
 * message from another function by its sender's bundle and position; a delayed message by its
 * timer, which exists until the message is applied.
 */
final class InboundInvocation {
  final Delivery delivery;
  final Address caller;
  final TypedValue argument;
  final Address bundleSender;
  final long bundleIncarnation;
  final long bundleVersion;
  final int bundlePart;
  final int bundleIndex;
  final boolean bundleResent;
  final long bundleCommittedAt;
  final TimerKey timer;
  final String timerToken;

  /**
   * The trace id of the request this message belongs to: what its sender's message, timer or
   * envelope carried, else one given where it entered. Its effects carry it on.
   */
  String traceId;

  private InboundInvocation(
      Delivery delivery,
      Address caller,
      TypedValue argument,
      Address bundleSender,
      long bundleIncarnation,
      long bundleVersion,
      int bundlePart,
      int bundleIndex,
      boolean bundleResent,
      long bundleCommittedAt,
      TimerKey timer,
      String timerToken) {
    this.delivery = delivery;
    this.caller = caller;
    this.argument = argument;
    this.bundleSender = bundleSender;
    this.bundleIncarnation = bundleIncarnation;
    this.bundleVersion = bundleVersion;
    this.bundlePart = bundlePart;
    this.bundleIndex = bundleIndex;
    this.bundleResent = bundleResent;
    this.bundleCommittedAt = bundleCommittedAt;
    this.timer = timer;
    this.timerToken = timerToken;
  }

  static InboundInvocation ingress(Delivery delivery, TypedValue argument) {
    return new InboundInvocation(delivery, null, argument, null, 0, 0, 0, 0, false, 0, null, null);
  }

  static InboundInvocation bundled(
      Delivery delivery,
      Address sender,
      long incarnation,
      long version,
      int part,
      int index,
      boolean resent,
      long committedAt,
      TypedValue argument) {
    return new InboundInvocation(
        delivery,
        sender,
        argument,
        sender,
        incarnation,
        version,
        part,
        index,
        resent,
        committedAt,
        null,
        null);
  }

  /**
   * How long after its commit a bundle may still arrive on its first send and be no repeat: within
   * SQS's five-minute deduplication window, a copy sent again is dropped by the queue. A first send
   * that comes later (its process paused, or the queue had a backlog) is checked like a resend.
   */
  static final long FIRST_SEND_WINDOW_MILLIS = 4 * 60_000;

  /**
   * Whether this bundled message may have been applied before, so its sender's mark decides: it was
   * sent again, its queue message is delivered again (a bundle's messages before one that failed
   * were applied and committed), or its first send came late.
   */
  boolean mayBeRepeat(long nowMillis) {
    return bundleResent
        || delivery.attempts > 1
        || delivery.rerun
        || nowMillis - bundleCommittedAt > FIRST_SEND_WINDOW_MILLIS;
  }

  /** The sender's key in the marks: its address and incarnation, hashed. */
  String senderHash() {
    return senderHash(bundleSender, bundleIncarnation);
  }

  /**
   * A sender's key in the marks: 128 bits of the SHA-256 of its address and incarnation (22
   * characters, however long the address), so that the marks of many senders take little room.
   */
  static String senderHash(Address sender, long incarnation) {
    return QueueIds.sha256(sender + "#" + Long.toHexString(incarnation)).substring(0, 22);
  }

  static InboundInvocation fired(
      Delivery delivery, Address owner, TimerKey timer, String token, TypedValue argument) {
    return new InboundInvocation(
        delivery, owner, argument, null, 0, 0, 0, 0, false, 0, timer, token);
  }

  Address target() {
    return delivery.target;
  }

  @Override
  public String toString() {
    return argument + " to " + delivery.target + (caller == null ? "" : " from " + caller);
  }
}
