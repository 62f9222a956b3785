package dev.statekit;

import java.time.Duration;
import java.util.Objects;

/**
 * When the current invocation must have answered by: a Lambda handler passes the time its context
 * says remains, and long work (the timer sweep, a scheduled task) stops early enough to answer with
 * what is left for the next invocation instead of being cut off mid-way. Measured on the monotonic
 * clock, so a test's fixed {@link java.time.Clock} does not affect it. Immutable.
 */
public final class Deadline {
  private static final Deadline NONE = new Deadline(0, true);

  private final long endNanos;
  private final boolean unlimited;

  private Deadline(long endNanos, boolean unlimited) {
    this.endNanos = endNanos;
    this.unlimited = unlimited;
  }

  /** No deadline: the caller waits as long as the work takes (a local run, a test). */
  public static Deadline none() {
    return NONE;
  }

  /**
   * The deadline {@code remaining} from now; on Lambda, {@code
   * Duration.ofMillis(context.getRemainingTimeInMillis())}.
   *
   * @throws IllegalArgumentException if {@code remaining} is negative
   */
  public static Deadline after(Duration remaining) {
    Objects.requireNonNull(remaining, "remaining");
    if (remaining.isNegative()) {
      throw new IllegalArgumentException(
          "The time remaining is zero or more, got "
              + remaining
              + "; pass Deadline.none() for none");
    }
    return new Deadline(System.nanoTime() + saturatedNanos(remaining), false);
  }

  /** Whether there is no deadline. */
  public boolean isUnlimited() {
    return unlimited;
  }

  /**
   * The time left, zero once passed; {@link Duration#ofSeconds(long)} of {@code Long.MAX_VALUE} if
   * none.
   */
  public Duration remaining() {
    if (unlimited) {
      return Duration.ofSeconds(Long.MAX_VALUE);
    }
    return Duration.ofNanos(Math.max(0, endNanos - System.nanoTime()));
  }

  /** Whether more than {@code margin} is left: start another step only if it fits in the margin. */
  public boolean hasMoreThan(Duration margin) {
    return unlimited || remaining().compareTo(margin) > 0;
  }

  @Override
  public String toString() {
    return unlimited ? "no deadline" : "deadline in " + remaining().toMillis() + " ms";
  }

  private static long saturatedNanos(Duration d) {
    try {
      return Math.min(d.toNanos(), Long.MAX_VALUE / 4);
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE / 4;
    }
  }
}
