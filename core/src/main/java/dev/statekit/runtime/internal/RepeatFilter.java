package dev.statekit.runtime.internal;

import dev.statekit.runtime.store.TimerKey;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Which of an address's invocations were applied before: by the marks read with its state, by a
 * timer that is gone, or earlier in the same batch (a message re-sent after the queue's
 * deduplication window can arrive beside its first copy).
 */
final class RepeatFilter {
  private RepeatFilter() {}

  static Set<InboundInvocation> of(
      RuntimeSettings settings,
      List<Delivery> deliveries,
      AppliedMarks marks,
      Set<TimerKey> timers) {
    Set<InboundInvocation> repeats = Collections.newSetFromMap(new IdentityHashMap<>());
    Set<TimerKey> timersInBatch = new HashSet<>();
    long now = settings.clock.millis() / 1000;
    for (Delivery d : deliveries) {
      boolean repeated =
          (d.hasQueueSequence() && marks.queueSeen(d.groupId, d.sequence))
              || (d.idempotencyKey != null && marks.idSeen(d.idempotencyKey));
      for (InboundInvocation inbound : d.invocations) {
        boolean bundled = inbound.bundleSender != null;
        if (repeated
            || (bundled
                && marks.bundleSeen(
                    inbound.senderKey(),
                    inbound.bundleVersion,
                    inbound.bundlePart,
                    inbound.bundleIndex))
            || (inbound.timer != null
                && (!timersInBatch.add(inbound.timer)
                    || !timerExists(settings, timers, inbound.timer)))) {
          repeats.add(inbound);
        } else if (bundled) {
          marks.recordBundle(
              inbound.senderKey(),
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
