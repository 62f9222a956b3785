package dev.statekit.runtime.internal;

import dev.statekit.Deadline;
import dev.statekit.event.BatchConsumer;
import java.time.Duration;

/**
 * When a queue batch stops starting invocations and stops waiting for them. A Lambda invocation cut
 * off at its timeout answers nothing, so every message of its batch comes again, and one slow
 * function would time its healthy neighbours out on every receive until they are dead-lettered. So
 * a reserve of the time left is kept ({@link BatchConsumer#reserve}): no invocation starts in the
 * reserve, those running are waited for through its first half, and its second half commits and
 * delivers what finished.
 */
final class BatchDeadline {
  static final BatchDeadline NONE = new BatchDeadline(Deadline.none(), Deadline.none());

  /** After it no invocation starts. */
  final Deadline startBy;

  /** Until it the batch waits for its addresses' functions. */
  final Deadline waitUntil;

  private BatchDeadline(Deadline startBy, Deadline waitUntil) {
    this.startBy = startBy;
    this.waitUntil = waitUntil;
  }

  /** The batch's limits for an invocation that must answer by {@code deadline}. */
  static BatchDeadline of(Deadline deadline) {
    if (deadline.isUnlimited()) {
      return NONE;
    }
    Duration left = deadline.remaining();
    Duration reserve = BatchConsumer.reserve(deadline);
    return new BatchDeadline(
        Deadline.after(left.minus(reserve)), Deadline.after(left.minus(reserve.dividedBy(2))));
  }

  /** Whether an invocation may still start. */
  boolean mayStart() {
    return startBy.hasMoreThan(Duration.ZERO);
  }
}
