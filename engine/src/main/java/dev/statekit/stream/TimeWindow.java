package dev.statekit.stream;

/**
 * An event-time window {@code [start, end)} in epoch milliseconds.
 *
 * @param start the first millisecond in the window
 * @param end the first millisecond after it
 */
public record TimeWindow(long start, long end) {
  /** Validates the bounds. */
  public TimeWindow {
    if (end <= start) {
      throw new IllegalArgumentException("A window ends after it starts: [" + start + ", " + end);
    }
  }

  /** The last timestamp in the window; it fires when the watermark reaches this. */
  public long maxTimestamp() {
    return end - 1;
  }

  /** True if the two windows overlap or touch (session windows that do merge). */
  public boolean intersects(TimeWindow other) {
    return start <= other.end && other.start <= end;
  }

  /** The smallest window covering both. */
  public TimeWindow cover(TimeWindow other) {
    return new TimeWindow(Math.min(start, other.start), Math.max(end, other.end));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TimeWindow w && w.start == start && w.end == end;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(start * 31 + end);
  }
}
