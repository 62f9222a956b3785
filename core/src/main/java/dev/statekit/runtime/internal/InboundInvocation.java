package dev.statekit.runtime.internal;

import dev.statekit.function.Address;
import dev.statekit.function.internal.TypedValue;
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
  final TimerKey timer;
  final String timerToken;

  private InboundInvocation(
      Delivery delivery,
      Address caller,
      TypedValue argument,
      Address bundleSender,
      long bundleIncarnation,
      long bundleVersion,
      int bundlePart,
      int bundleIndex,
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
    this.timer = timer;
    this.timerToken = timerToken;
  }

  static InboundInvocation ingress(Delivery delivery, TypedValue argument) {
    return new InboundInvocation(delivery, null, argument, null, 0, 0, 0, 0, null, null);
  }

  static InboundInvocation bundled(
      Delivery delivery,
      Address sender,
      long incarnation,
      long version,
      int part,
      int index,
      TypedValue argument) {
    return new InboundInvocation(
        delivery, sender, argument, sender, incarnation, version, part, index, null, null);
  }

  /** The sender's key in the marks: its address and incarnation. */
  String senderKey() {
    return bundleSender + "#" + Long.toHexString(bundleIncarnation);
  }

  static InboundInvocation fired(
      Delivery delivery, Address owner, TimerKey timer, String token, TypedValue argument) {
    return new InboundInvocation(delivery, owner, argument, null, 0, 0, 0, 0, timer, token);
  }

  Address target() {
    return delivery.target;
  }

  @Override
  public String toString() {
    return argument + " to " + delivery.target + (caller == null ? "" : " from " + caller);
  }
}
