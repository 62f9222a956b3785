package dev.statekit.runtime.internal;

import dev.statekit.runtime.store.TimerKey;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Which of an address's invocations were applied before: by the marks read with its state (its
 * queue group's sequence, the idempotency key, and for a bundle that may be a repeat its sender's
 * mark), by a timer that is gone, or earlier in the same batch (a message re-sent after the queue's
 * deduplication window can arrive beside its first copy; a FIFO message whose visibility timeout
 * ran out within the batching window is received twice).
 *
 * <p>A bundle's first delivery, soon after its commit, is never a repeat: its sender sends it again
 * only with {@code resend} set, and a copy sent again within SQS's deduplication window is dropped
 * by the queue. So the sender marks are read only for a bundle sent again, delivered again (part of
 * it may have been applied before a later message of it failed) or first sent late.
 */
final class RepeatFilter {
  private RepeatFilter() {}

  /** The ids of spilled marks to read before {@link #of} can decide about {@code deliveries}. */
  static Set<String> lookups(List<Delivery> deliveries, AppliedMarks marks, long nowMillis) {
    long nowSeconds = nowMillis / 1000;
    Set<String> lookups = new HashSet<>();
    for (Delivery d : deliveries) {
      if (d.hasQueueSequence()) {
        marks.groupLookup(d.groupId, nowSeconds, lookups);
      }
      if (d.idempotencyKey != null) {
        marks.idLookup(d.idempotencyKey, nowSeconds, lookups);
        if (d.call) {
          marks.replyLookup(d.idempotencyKey, nowSeconds, lookups);
        }
      }
      for (InboundInvocation inbound : d.invocations) {
        if (inbound.bundleSender != null && inbound.mayBeRepeat(nowMillis)) {
          marks.senderLookup(inbound.senderHash(), nowSeconds, lookups);
        }
      }
    }
    return lookups;
  }

  static Set<InboundInvocation> of(
      RuntimeSettings settings,
      List<Delivery> deliveries,
      AppliedMarks marks,
      Set<TimerKey> timers) {
    Set<InboundInvocation> repeats = Collections.newSetFromMap(new IdentityHashMap<>());
    Set<TimerKey> timersInBatch = new HashSet<>();
    Set<List<String>> sequencesInBatch = new HashSet<>();
    long nowMillis = settings.clock.millis();
    long now = nowMillis / 1000;
    for (Delivery d : deliveries) {
      boolean repeated =
          (d.hasQueueSequence()
                  && (marks.queueSeen(d.groupId, d.sequence)
                      || !sequencesInBatch.add(List.of(d.groupId, d.sequence))))
              || (d.idempotencyKey != null && marks.idSeen(d.idempotencyKey));
      for (InboundInvocation inbound : d.invocations) {
        boolean bundled = inbound.bundleSender != null;
        if (repeated
            || (bundled
                && inbound.mayBeRepeat(nowMillis)
                && marks.bundleSeen(
                    inbound.senderHash(),
                    inbound.bundleVersion,
                    inbound.bundlePart,
                    inbound.bundleIndex))
            || (inbound.timer != null
                && (!timersInBatch.add(inbound.timer)
                    || !timerExists(settings, timers, inbound.timer)))) {
          repeats.add(inbound);
        } else if (bundled) {
          marks.recordBundle(
              inbound.senderHash(),
              inbound.bundleVersion,
              inbound.bundlePart,
              inbound.bundleIndex,
              now);
        }
      }
      if (d.idempotencyKey != null) {
        marks.recordId(d.idempotencyKey, now);
      }
    }
    return repeats;
  }

  private static boolean timerExists(
      RuntimeSettings settings, Set<TimerKey> timers, TimerKey timer) {
    // The batch read may be stale; a timer that seems gone is checked once more before its message
    // is dropped as a repeat.
    return timers.contains(timer) || settings.store.timerExists(timer);
  }
}
