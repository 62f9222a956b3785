package dev.statekit.concurrent;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;

/**
 * Exponential backoff with full jitter: before attempt {@code n + 1}, a random time up to {@code
 * base * 2^(n - 1)}, capped at {@code max}. Jitter keeps workers that failed together from retrying
 * together. Immutable and thread-safe.
 *
 * @param base the ceiling of the first pause
 * @param max the ceiling of every pause
 */
public record Backoff(Duration base, Duration max) {
  private static final SecureRandom JITTER = new SecureRandom();

  /**
   * @throws IllegalArgumentException if either is negative or {@code max} is below {@code base}
   */
  public Backoff {
    Objects.requireNonNull(base, "base");
    Objects.requireNonNull(max, "max");
    if (base.isNegative() || max.compareTo(base) < 0) {
      throw new IllegalArgumentException(
          "A backoff needs 0 <= base <= max, got base " + base + " and max " + max);
    }
  }

  /**
   * Sleeps before attempt {@code attempt + 1}.
   *
   * @throws IllegalStateException if the thread is interrupted meanwhile (its flag is set again)
   */
  public void pause(int attempt) {
    long ceiling = base.toMillis() << Math.min(Math.max(attempt - 1, 0), 20);
    long millis = JITTER.nextLong(Math.min(ceiling, max.toMillis()) + 1);
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while backing off before a retry", e);
    }
  }
}
