package dev.statekit.stream.internal;

import java.time.Duration;

/**
 * The event times windows and watermarks work with: within ±2^62 ms of the epoch (about ±146
 * million years), with window sizes, gaps and out-of-orderness bounds of at most 2^61 ms. So a
 * watermark ({@code timestamp - bound - 1}), a window's end ({@code start + size}) and a session's
 * ({@code timestamp + gap}) never overflow: one forged timestamp near {@code Long.MIN_VALUE}
 * wrapped the watermark to the end of time, and every later record was late.
 */
public final class EventTime {
  /** The least event time accepted. */
  public static final long MIN = -(1L << 62);

  /** The greatest event time accepted. */
  public static final long MAX = 1L << 62;

  /** The longest window size, session gap or out-of-orderness bound, in ms. */
  public static final long MAX_SPAN = 1L << 61;

  private EventTime() {}

  /** True if windows and watermarks can work with {@code timestamp}. */
  public static boolean accepts(long timestamp) {
    return timestamp >= MIN && timestamp <= MAX;
  }

  /**
   * {@code span} in ms, refused if it is longer than {@link #MAX_SPAN}.
   *
   * @param what what the span is, for the error ("A window's size")
   */
  public static long span(Duration span, String what) {
    long ms;
    try {
      ms = span.toMillis();
    } catch (ArithmeticException e) {
      ms = Long.MAX_VALUE;
    }
    if (ms > MAX_SPAN) {
      throw new IllegalArgumentException(
          what + " is at most 2^61 ms (about 73 million years), got " + span);
    }
    return ms;
  }
}
