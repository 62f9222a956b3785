package dev.statekit.stream;

import java.util.Map;
import java.util.Objects;

/**
 * One element of a stream: a value with its key (set by {@code keyBy}, else null), its event
 * timestamp in epoch milliseconds ({@link #NO_TIMESTAMP} if it has none), headers, and the position
 * in the source it was read from (null for records an operator made from scratch). Records are
 * immutable; operators derive new ones with the {@code with*} methods, which keep timestamp,
 * headers and position.
 *
 * @param <T> the value's type
 */
public final class Record<T> {
  /** The timestamp of a record without event time. */
  public static final long NO_TIMESTAMP = Long.MIN_VALUE;

  private final Object key;
  private final T value;
  private final long timestamp;
  private final Map<String, String> headers;
  // The position is kept as its parts so that sources with numeric offsets allocate nothing
  // beyond the record itself; position() assembles it on demand.
  private final String split;
  private final long offset;
  private final String offsetText;

  private Record(
      Object key,
      T value,
      long timestamp,
      Map<String, String> headers,
      String split,
      long offset,
      String offsetText) {
    this.key = key;
    this.value = value;
    this.timestamp = timestamp;
    this.headers = headers;
    this.split = split;
    this.offset = offset;
    this.offsetText = offsetText;
  }

  private Record(
      Object key, T value, long timestamp, Map<String, String> headers, SourcePosition position) {
    this(
        key,
        value,
        timestamp,
        headers,
        position == null ? null : position.split(),
        0,
        position == null ? null : position.offset());
  }

  private <R> Record<R> derive(Object newKey, R newValue, long newTimestamp) {
    return new Record<>(newKey, newValue, newTimestamp, headers, split, offset, offsetText);
  }

  /**
   * A record read from a split at a numeric offset, without headers: the cheapest record to make
   * for a source.
   */
  public static <T> Record<T> at(String split, long offset, Object key, T value, long timestamp) {
    return new Record<>(key, value, timestamp, Map.of(), split, offset, null);
  }

  /** A record with only a value. */
  public static <T> Record<T> of(T value) {
    return new Record<>(null, value, NO_TIMESTAMP, Map.of(), null);
  }

  /** A record with a value and an event timestamp. */
  public static <T> Record<T> of(T value, long timestamp) {
    return new Record<>(null, value, timestamp, Map.of(), null);
  }

  /** A record with every field given; headers are copied. */
  public static <T> Record<T> of(
      Object key, T value, long timestamp, Map<String, String> headers, SourcePosition position) {
    return new Record<>(key, value, timestamp, Map.copyOf(headers), position);
  }

  /** The key set by the last {@code keyBy}, or null. */
  public Object key() {
    return key;
  }

  /** The value. */
  public T value() {
    return value;
  }

  /** The event timestamp in epoch milliseconds, or {@link #NO_TIMESTAMP}. */
  public long timestamp() {
    return timestamp;
  }

  /** True if the record has an event timestamp. */
  public boolean hasTimestamp() {
    return timestamp != NO_TIMESTAMP;
  }

  /** The headers (never null). */
  public Map<String, String> headers() {
    return headers;
  }

  /** The source position, or null. */
  public SourcePosition position() {
    if (split == null) {
      return null;
    }
    return new SourcePosition(split, offsetText != null ? offsetText : Long.toString(offset));
  }

  /** This record read at another position (headers, key, value and timestamp kept). */
  public Record<T> withPosition(SourcePosition newPosition) {
    return new Record<>(key, value, timestamp, headers, newPosition);
  }

  /** This record with another value. */
  public <R> Record<R> withValue(R newValue) {
    return derive(key, newValue, timestamp);
  }

  /** This record with another key. */
  public Record<T> withKey(Object newKey) {
    return derive(newKey, value, timestamp);
  }

  /** This record with another key and value. */
  public <R> Record<R> withKeyAndValue(Object newKey, R newValue) {
    return derive(newKey, newValue, timestamp);
  }

  /** This record with another event timestamp. */
  public Record<T> withTimestamp(long newTimestamp) {
    return derive(key, value, newTimestamp);
  }

  /** This record with one more header (or a header replaced). */
  public Record<T> withHeader(String name, String headerValue) {
    var copy = new java.util.HashMap<>(headers);
    copy.put(name, headerValue);
    return new Record<>(key, value, timestamp, Map.copyOf(copy), split, offset, offsetText);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Record<?> r
        && timestamp == r.timestamp
        && Objects.equals(key, r.key)
        && Objects.equals(value, r.value)
        && headers.equals(r.headers)
        && Objects.equals(position(), r.position());
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, value, timestamp, headers, split);
  }

  @Override
  public String toString() {
    return "Record{key="
        + key
        + ", value="
        + value
        + (hasTimestamp() ? ", ts=" + timestamp : "")
        + (headers.isEmpty() ? "" : ", headers=" + headers)
        + (split == null ? "" : ", at=" + split + "@" + position().offset())
        + "}";
  }
}
