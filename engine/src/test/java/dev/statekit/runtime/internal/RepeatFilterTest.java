package dev.statekit.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.invocation.TypedValue;
import dev.statekit.types.TypeName;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which bundles the sender's mark decides, and the dead letters of one bundled message. */
class RepeatFilterTest {
  private static final Address SENDER = Address.of(TypeName.of("t", "sender"), "s");
  private static final Address TARGET = Address.of(TypeName.of("t", "target"), "t");
  private static final long NOW = 10_000_000;

  // Found by the simulation: a first send that came late after a copy sent again was applied.
  @Test
  void aBundleFirstSentLongAfterItsCommitIsCheckedLikeAResend() {
    InboundInvocation fresh = bundled(false, NOW - 60_000);
    InboundInvocation late = bundled(false, NOW - 5 * 60_000);
    InboundInvocation resent = bundled(true, NOW - 60_000);

    assertFalse(fresh.mayBeRepeat(NOW), "within SQS's deduplication: the queue drops a copy");
    assertTrue(late.mayBeRepeat(NOW));
    assertTrue(resent.mayBeRepeat(NOW));
  }

  @Test
  void aMarkOfASenderThatLeftTheItemIsLookedUpOnlyForAPossibleRepeat() {
    AppliedMarks marks =
        AppliedMarks.of(
            dev.statekit.runtime.internal.data.RuntimeData.newBuilder()
                .setSendersSpilledUntil(NOW / 1000 + 100)
                .build(),
            Map.of());
    Delivery fresh = delivery(false, NOW - 60_000);
    Delivery late = delivery(false, NOW - 5 * 60_000);

    assertTrue(RepeatFilter.lookups(java.util.List.of(fresh), marks, NOW).isEmpty());
    assertEquals(
        java.util.Set.of(AppliedMarks.senderMarkId(fresh.invocations.get(0).senderHash())),
        RepeatFilter.lookups(java.util.List.of(late), marks, NOW));
  }

  @Test
  void theSenderAndTheReceiverDeadLetterABundledMessageUnderOneId() {
    dev.statekit.runtime.internal.data.Outbox outbox =
        dev.statekit.runtime.internal.data.Outbox.newBuilder()
            .setIncarnation(7)
            .addBundles(
                dev.statekit.runtime.internal.data.OutgoingBundle.newBuilder()
                    .setTargetType(TARGET.type().asString())
                    .setTargetId(TARGET.id())
                    .setPart(0)
                    .addPayloads(
                        dev.statekit.runtime.internal.data.Payload.newBuilder()
                            .setTypeName("t/v")
                            .setValue(com.google.protobuf.ByteString.copyFromUtf8("x"))))
            .build();
    Undelivered undelivered = new Undelivered();
    undelivered.bundle(Undelivered.bundleKey(TARGET.type().asString(), TARGET.id(), 0), "down");
    String bySender =
        DeadLetters.ofUndelivered(new PendingOutbox(SENDER, 3, outbox), undelivered, 5)
            .get(0)
            .getDeduplicationId();
    Delivery received = Delivery.queued(0, "m", "g", "1", 5, "{}");
    received.target = TARGET;
    received.invocations.add(
        InboundInvocation.bundled(
            received, SENDER, 7, 3, 0, 0, false, NOW, new TypedValue("t/v", new byte[] {'x'})));
    String byReceiver =
        DeadLetters.of(
                received,
                received.invocations.get(0),
                new IllegalStateException("its function is gone"),
                "unknown")
            .getDeduplicationId();

    assertEquals(bySender, byReceiver);
  }

  private static InboundInvocation bundled(boolean resent, long committedAt) {
    return delivery(resent, committedAt).invocations.get(0);
  }

  private static Delivery delivery(boolean resent, long committedAt) {
    Delivery delivery = Delivery.queued(0, "m", "g", "1", 1, "{}");
    delivery.target = TARGET;
    delivery.invocations.add(
        InboundInvocation.bundled(
            delivery, SENDER, 7, 3, 0, 0, resent, committedAt, new TypedValue("t/v", new byte[0])));
    return delivery;
  }
}
