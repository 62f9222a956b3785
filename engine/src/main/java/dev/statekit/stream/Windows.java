package dev.statekit.stream;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Assigns records to event-time windows: tumbling (fixed, adjacent), sliding (fixed, overlapping)
 * or session (per key, closed after a gap without records; sessions that come close merge).
 */
public final class Windows {
  /** The kinds of window. */
  public enum Kind {
    /** Fixed windows that don't overlap. */
    TUMBLING,
    /** Fixed windows that start every {@code slide}. */
    SLIDING,
    /** Windows that grow while records keep coming within {@code gap}. */
    SESSION
  }

  private final Kind kind;
  private final long size;
  private final long slide;
  private final long offset;

  private Windows(Kind kind, long size, long slide, long offset) {
    this.kind = kind;
    this.size = size;
    this.slide = slide;
    this.offset = offset;
  }

  /** Windows of {@code size} starting at multiples of it (since the epoch). */
  public static Windows tumbling(Duration size) {
    long ms = positive(size, "size");
    return new Windows(Kind.TUMBLING, ms, ms, 0);
  }

  /**
   * Windows of {@code size}, one starting every {@code slide}; size must be a multiple of slide.
   */
  public static Windows sliding(Duration size, Duration slide) {
    long s = positive(size, "size");
    long sl = positive(slide, "slide");
    if (s % sl != 0) {
      throw new IllegalArgumentException(
          "A sliding window's size must be a multiple of its slide, got "
              + size
              + " and "
              + slide
              + ": for example 10s every 2s");
    }
    return new Windows(Kind.SLIDING, s, sl, 0);
  }

  /** Sessions per key that close after {@code gap} without records. */
  public static Windows session(Duration gap) {
    long g = positive(gap, "gap");
    return new Windows(Kind.SESSION, g, g, 0);
  }

  private static long positive(Duration d, String what) {
    Objects.requireNonNull(d, what);
    long ms = dev.statekit.stream.internal.EventTime.span(d, "A window's " + what);
    if (ms < 1) {
      throw new IllegalArgumentException("A window's " + what + " is at least 1 ms, got " + d);
    }
    return ms;
  }

  /** The kind. */
  public Kind kind() {
    return kind;
  }

  /** The window size in ms (the gap, for sessions). */
  public long size() {
    return size;
  }

  /** The slide in ms (the size for tumbling windows, the gap for sessions). */
  public long slide() {
    return slide;
  }

  /** The start of the last window containing {@code timestamp} (tumbling and sliding). */
  public long lastStart(long timestamp) {
    return timestamp - Math.floorMod(timestamp - offset, slide);
  }

  /** The configuration, as the graph view shows it. */
  public Map<String, String> describe() {
    return switch (kind) {
      case TUMBLING -> Map.of("windows", "tumbling", "size_ms", Long.toString(size));
      case SLIDING ->
          Map.of(
              "windows",
              "sliding",
              "size_ms",
              Long.toString(size),
              "slide_ms",
              Long.toString(slide));
      case SESSION -> Map.of("windows", "session", "gap_ms", Long.toString(size));
    };
  }

  @Override
  public String toString() {
    return describe().toString();
  }
}
