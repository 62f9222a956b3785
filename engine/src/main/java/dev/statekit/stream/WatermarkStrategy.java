package dev.statekit.stream;

import java.time.Duration;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * How a pipeline assigns event timestamps and tracks event time. The watermark, after each poll of
 * the source, is the highest timestamp seen minus the allowed out-of-orderness minus one: a window
 * fires once the watermark reaches its last millisecond, and a record arriving for windows that
 * have all fired is late. When the input stops for the idle timeout, the watermark moves on with
 * the wall clock so that open windows still fire.
 *
 * @param <T> the records' value type
 */
public final class WatermarkStrategy<T> {
  private final long outOfOrdernessMs;
  private final ToLongFunction<T> timestamps;
  private final long idleTimeoutMs;

  private WatermarkStrategy(long outOfOrdernessMs, ToLongFunction<T> timestamps, long idleMs) {
    this.outOfOrdernessMs = outOfOrdernessMs;
    this.timestamps = timestamps;
    this.idleTimeoutMs = idleMs;
  }

  /** Records may arrive up to {@code bound} behind the newest one seen. */
  public static <T> WatermarkStrategy<T> boundedOutOfOrderness(Duration bound) {
    Objects.requireNonNull(bound, "bound");
    if (bound.isNegative()) {
      throw new IllegalArgumentException("The out-of-orderness bound is >= 0, got " + bound);
    }
    return new WatermarkStrategy<>(
        dev.statekit.stream.internal.EventTime.span(bound, "The out-of-orderness bound"), null, 0);
  }

  /** Takes each record's timestamp from its value instead of the record's own timestamp. */
  public WatermarkStrategy<T> withTimestamps(ToLongFunction<T> extractor) {
    return new WatermarkStrategy<>(
        outOfOrdernessMs, Objects.requireNonNull(extractor, "extractor"), idleTimeoutMs);
  }

  /** After {@code timeout} without records, advances the watermark with the wall clock. */
  public WatermarkStrategy<T> withIdleTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.toMillis() < 1) {
      throw new IllegalArgumentException("The idle timeout is at least 1 ms, got " + timeout);
    }
    return new WatermarkStrategy<>(outOfOrdernessMs, timestamps, timeout.toMillis());
  }

  /** The allowed out-of-orderness in ms. */
  public long outOfOrdernessMs() {
    return outOfOrdernessMs;
  }

  /** The timestamp extractor, or null to use records' own timestamps. */
  public ToLongFunction<T> timestamps() {
    return timestamps;
  }

  /** The idle timeout in ms, 0 for none. */
  public long idleTimeoutMs() {
    return idleTimeoutMs;
  }
}
