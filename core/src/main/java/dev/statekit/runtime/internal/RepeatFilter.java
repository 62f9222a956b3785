package dev.statekit.runtime.internal;

import dev.statekit.runtime.store.TimerKey;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Which of an address's invocations were applied before: by the marks read with its state (its
 * queue group's sequence, the idempotency key, the origin a dead letter's key names, and for a
 * bundle sent again its sender's mark), by a timer that is gone, or earlier in the same batch (a
 * message re-sent after the queue's deduplication window can arrive beside its first copy).
 *
 * <p>A bundle on its first send, soon after its commit, is never a repeat but of the same queue
 * message, which its group's sequence catches: its sender sends it again only with {@code resend}
 * set, and a copy sent again within SQS's deduplication window is dropped by the queue. So the
 * sender marks are read only for a bundle sent again or first sent late.
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
        OriginIds.Queued queued = OriginIds.queuedOrNull(d.idempotencyKey);
        if (queued != null) {
          marks.groupLookup(queued.groupId(), nowSeconds, lookups);
        }
        OriginIds.Bundled bundled = OriginIds.bundledOrNull(d.idempotencyKey);
        if (bundled != null) {
          marks.senderLookup(bundled.senderHash(), nowSeconds, lookups);
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
    long nowMillis = settings.clock.millis();
    long now = nowMillis / 1000;
    for (Delivery d : deliveries) {
      boolean repeated =
          (d.hasQueueSequence() && marks.queueSeen(d.groupId, d.sequence))
              || (d.idempotencyKey != null && keySeen(marks, d.idempotencyKey));
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

  /** Whether the key was applied, or names an origin that was. */
  private static boolean keySeen(AppliedMarks marks, String key) {
    if (marks.idSeen(key)) {
      return true;
    }
    OriginIds.Queued queued = OriginIds.queuedOrNull(key);
    if (queued != null && marks.queueSeen(queued.groupId(), queued.sequence())) {
      return true;
    }
    OriginIds.Bundled bundled = OriginIds.bundledOrNull(key);
    return bundled != null
        && marks.bundleSeen(
            bundled.senderHash(), bundled.version(), bundled.part(), bundled.index());
  }

  private static boolean timerExists(
      RuntimeSettings settings, Set<TimerKey> timers, TimerKey timer) {
    // The batch read may be stale; a timer that seems gone is checked once more before its message
    // is dropped as a repeat.
    return timers.contains(timer) || settings.store.timerExists(timer);
  }
}
