package dev.statekit.runtime.store;

import java.util.Objects;

/**
 * A durable timer: a message that goes to the queue when it is due. It stays stored until the
 * message is applied by its target (or the timer is cancelled), so the target can tell a first
 * delivery from a repeated one by whether the timer still exists.
 *
 * @param key where the timer is kept and when it is due
 * @param groupId the queue message group of the target
 * @param body the queue message body to send
 * @param sentAtMillis when a sweep or a wake-up last sent it, 0 if never
 * @param wakeUpAtMillis when a wake-up for it was put on the wake-up queue (or, written with the
 *     timer, is to be put right after its commit), 0 if none was: the sweep puts one for a timer
 *     without one shortly before it is due
 */
public record Timer(
    TimerKey key, String groupId, String body, long sentAtMillis, long wakeUpAtMillis) {
  /** Checks the parts. */
  public Timer {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(groupId, "groupId");
    Objects.requireNonNull(body, "body");
  }

  /** A timer no wake-up was put for. */
  public Timer(TimerKey key, String groupId, String body, long sentAtMillis) {
    this(key, groupId, body, sentAtMillis, 0);
  }

  /** This timer, sent at {@code millis}. */
  public Timer sentAt(long millis) {
    return new Timer(key, groupId, body, millis, wakeUpAtMillis);
  }

  /** This timer, its wake-up put at {@code millis}. */
  public Timer wokenAt(long millis) {
    return new Timer(key, groupId, body, sentAtMillis, millis);
  }
}
