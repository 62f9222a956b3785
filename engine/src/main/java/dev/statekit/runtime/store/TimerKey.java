package dev.statekit.runtime.store;

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
  public static final long MAX_DUE_AT_MILLIS = SortedKeys.MAX_DUE_AT_MILLIS;

  /** Checks the parts. */
  public TimerKey {
    SortedKeys.check("timer", shard, dueAtMillis, id);
  }

  /** {@code shard:dueAtMillis:id}, the form {@link #parse} reads. */
  public String asString() {
    return SortedKeys.asString(shard, dueAtMillis, id);
  }

  /**
   * Reads {@link #asString()}'s form.
   *
   * @throws IllegalArgumentException if {@code text} is not of that form
   */
  public static TimerKey parse(String text) {
    String[] parts = SortedKeys.parts("timer", text);
    return new TimerKey(
        SortedKeys.shard("timer", text, parts[0]),
        SortedKeys.due("timer", text, parts[1]),
        parts[2]);
  }
}
