package dev.statekit.runtime.store;

import java.util.Objects;

/**
 * Where a durable timer (a delayed message) is kept: its shard, the moment it is due and its id.
 * Timers of one shard are read in order of due time, so a sweep reads only the due ones.
 *
 * @param shard the shard, from 0
 * @param dueAtMillis epoch milliseconds at which the message is due
 * @param id the timer's id, unique and made of letters, digits, {@code -} and {@code _}
 */
public record TimerKey(int shard, long dueAtMillis, String id) {
  /** The largest due time a key can hold: its 13 digits reach into the year 2286. */
  public static final long MAX_DUE_AT_MILLIS = 9_999_999_999_999L;

  /** Checks the parts. */
  public TimerKey {
    Objects.requireNonNull(id, "id");
    if (shard < 0) {
      throw new IllegalArgumentException("A timer shard is 0 or more, got " + shard);
    }
    if (dueAtMillis < 0 || dueAtMillis > MAX_DUE_AT_MILLIS) {
      throw new IllegalArgumentException(
          "A timer is due between the epoch and " + MAX_DUE_AT_MILLIS + " ms, got " + dueAtMillis);
    }
    if (id.isEmpty() || !id.chars().allMatch(TimerKey::isIdChar)) {
      throw new IllegalArgumentException(
          "A timer id is made of letters, digits, '-' and '_', got '" + id + "'");
    }
  }

  /** {@code shard:dueAtMillis:id}, the form {@link #parse} reads. */
  public String asString() {
    return shard + ":" + dueAtMillis + ":" + id;
  }

  /**
   * Reads {@link #asString()}'s form.
   *
   * @throws IllegalArgumentException if {@code text} is not of that form
   */
  public static TimerKey parse(String text) {
    int first = text.indexOf(':');
    int second = first < 0 ? -1 : text.indexOf(':', first + 1);
    if (second < 0) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a timer key; expected shard:dueAtMillis:id");
    }
    try {
      return new TimerKey(
          Integer.parseInt(text.substring(0, first)),
          Long.parseLong(text.substring(first + 1, second)),
          text.substring(second + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a timer key; expected shard:dueAtMillis:id", e);
    }
  }

  private static boolean isIdChar(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_';
  }
}
