package dev.statekit.function;

import java.time.Duration;
import java.util.Objects;

/**
 * When a persisted value expires: never, a time after it was last written, or a time after it was
 * last read or written ("after call"). The runtime removes expired values; the function then sees
 * them absent.
 */
public final class Expiration {
  private static final Expiration NONE = new Expiration(Mode.NONE, Duration.ZERO);

  /** What restarts the expiry clock. */
  public enum Mode {
    /** The value never expires. */
    NONE,
    /** Each write restarts the clock. */
    AFTER_WRITE,
    /** Each invocation that reads or writes the value restarts the clock. */
    AFTER_CALL
  }

  private final Mode mode;
  private final Duration duration;

  private Expiration(Mode mode, Duration duration) {
    this.mode = mode;
    this.duration = duration;
  }

  /** The value never expires. */
  public static Expiration none() {
    return NONE;
  }

  /**
   * The value expires {@code duration} after its last write.
   *
   * @throws IllegalArgumentException if the duration is under one millisecond, or longer than a
   *     long of milliseconds
   */
  public static Expiration expireAfterWriting(Duration duration) {
    return new Expiration(Mode.AFTER_WRITE, requirePositive(duration));
  }

  /**
   * The value expires {@code duration} after the last invocation that read or wrote it.
   *
   * @throws IllegalArgumentException if the duration is under one millisecond, or longer than a
   *     long of milliseconds
   */
  public static Expiration expireAfterCall(Duration duration) {
    return new Expiration(Mode.AFTER_CALL, requirePositive(duration));
  }

  private static Duration requirePositive(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    long millis;
    try {
      millis = duration.toMillis();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "An expiration's duration must fit in a long of milliseconds, got "
              + duration
              + "; use Expiration.none() for values that never expire");
    }
    if (millis < 1) {
      throw new IllegalArgumentException(
          "An expiration needs a duration of at least 1 ms, got "
              + duration
              + "; use Expiration.none() for values that never expire");
    }
    return duration;
  }

  /** What restarts the clock. */
  public Mode mode() {
    return mode;
  }

  /** How long after the last write or call the value expires; zero for {@link Mode#NONE}. */
  public Duration duration() {
    return duration;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Expiration
        && mode == ((Expiration) other).mode
        && duration.equals(((Expiration) other).duration);
  }

  @Override
  public int hashCode() {
    return 31 * mode.hashCode() + duration.hashCode();
  }

  @Override
  public String toString() {
    return mode == Mode.NONE ? "never" : mode + " " + duration;
  }
}
