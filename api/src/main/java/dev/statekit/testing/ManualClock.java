package dev.statekit.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when the test says so, for code that takes a {@link Clock}: delayed
 * messages and expiring state in the runtime, idle timeouts and ticks of pipelines on Lambda. Safe
 * to read from several threads; always in UTC.
 */
public final class ManualClock extends Clock {
  private final AtomicLong millis;

  /** A clock at {@code start}. */
  public ManualClock(Instant start) {
    this.millis = new AtomicLong(start.toEpochMilli());
  }

  /** A clock at {@code startMillis} since the epoch. */
  public ManualClock(long startMillis) {
    this.millis = new AtomicLong(startMillis);
  }

  /**
   * Moves the clock on.
   *
   * @throws IllegalArgumentException if {@code by} is negative: time does not go back
   */
  public void advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("A clock moves forward only, not by " + by);
    }
    millis.addAndGet(by.toMillis());
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  /** The same clock: it keeps UTC. */
  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
