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
  // Where the record came from and its headers, in one field so that a record is 40 bytes, not 48
  // (records are most of what a pipeline allocates): null (neither), the split's name (its offset
  // numeric, in offset), a SourcePosition (a textual offset), or Extra (headers, and either).
  private final Object where;
  private final long offset;

  private Record(Object key, T value, long timestamp, Object where, long offset) {
    this.key = key;
    this.value = value;
    this.timestamp = timestamp;
    this.where = where;
    this.offset = offset;
  }

  /** Headers and a position, for the records that have headers. */
  private record Extra(Map<String, String> headers, Object position) {}

  private static Object where(Map<String, String> headers, Object position) {
    return headers.isEmpty() ? position : new Extra(headers, position);
  }

  private Object positionPart() {
    return where instanceof Extra e ? e.position : where;
  }

  private String splitName() {
    Object position = positionPart();
    return position instanceof SourcePosition p ? p.split() : (String) position;
  }

  private <R> Record<R> derive(Object newKey, R newValue, long newTimestamp) {
    return new Record<>(newKey, newValue, newTimestamp, where, offset);
  }

  /**
   * A record read from a split at a numeric offset, without headers: the cheapest record to make
   * for a source.
   */
  public static <T> Record<T> at(String split, long offset, Object key, T value, long timestamp) {
    return new Record<>(key, value, timestamp, split, offset);
  }

  /** A record with only a value. */
  public static <T> Record<T> of(T value) {
    return new Record<>(null, value, NO_TIMESTAMP, null, 0);
  }

  /** A record with a value and an event timestamp. */
  public static <T> Record<T> of(T value, long timestamp) {
    return new Record<>(null, value, timestamp, null, 0);
  }

  /** A record with every field given; headers are copied. */
  public static <T> Record<T> of(
      Object key, T value, long timestamp, Map<String, String> headers, SourcePosition position) {
    return new Record<>(key, value, timestamp, where(Map.copyOf(headers), position), 0);
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
    return where instanceof Extra e ? e.headers : Map.of();
  }

  /** The source position, or null. */
  public SourcePosition position() {
    Object position = positionPart();
    if (position instanceof String split) {
      return new SourcePosition(split, Long.toString(offset));
    }
    return (SourcePosition) position;
  }

  /** This record read at another position (headers, key, value and timestamp kept). */
  public Record<T> withPosition(SourcePosition newPosition) {
    return new Record<>(key, value, timestamp, where(headers(), newPosition), 0);
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
    var copy = new java.util.HashMap<>(headers());
    copy.put(name, headerValue);
    return new Record<>(key, value, timestamp, new Extra(Map.copyOf(copy), positionPart()), offset);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Record<?> r
        && timestamp == r.timestamp
        && Objects.equals(key, r.key)
        && Objects.equals(value, r.value)
        && headers().equals(r.headers())
        && Objects.equals(position(), r.position());
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, value, timestamp, headers(), splitName());
  }

  @Override
  public String toString() {
    return "Record{key="
        + key
        + ", value="
        + value
        + (hasTimestamp() ? ", ts=" + timestamp : "")
        + (headers().isEmpty() ? "" : ", headers=" + headers())
        + (positionPart() == null ? "" : ", at=" + splitName() + "@" + position().offset())
        + "}";
  }
}
