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
 * @param sentAtMillis when a sweep last sent it, 0 if never
 */
public record Timer(TimerKey key, String groupId, String body, long sentAtMillis) {
  /** Checks the parts. */
  public Timer {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(groupId, "groupId");
    Objects.requireNonNull(body, "body");
  }
}
