package dev.statekit.stream.lambda;

/**
 * An entry of the timer index: the windows one batch opened, so that an invocation can find the
 * windows due at a watermark with one query, whichever keys they belong to. Written once, deleted
 * once every window in it fired.
 *
 * @param id the item's id, starting with {@link #timePrefix}{@code (minTime)} so that ids sort by
 *     {@code minTime}
 * @param minTime the earliest window end in the item (a window's last millisecond)
 * @param maxTime the latest
 * @param timers the encoded windows
 */
public record TimerItem(String id, long minTime, long maxTime, byte[] timers) {
  /**
   * {@code time} as 20 decimal digits that sort as the times do, negative ones included: ids that
   * start with it sort by time as strings.
   */
  public static String timePrefix(long time) {
    String digits = Long.toUnsignedString(time ^ Long.MIN_VALUE);
    return "0".repeat(20 - digits.length()) + digits;
  }

  /** A string above the id of every item whose {@code minTime} is at most {@code time}. */
  public static String idBound(long time) {
    return time == Long.MAX_VALUE ? "~" : timePrefix(time + 1);
  }
}
