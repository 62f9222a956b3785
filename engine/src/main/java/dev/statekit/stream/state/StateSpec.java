package dev.statekit.stream.state;

import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import java.util.Objects;

/**
 * Declares one piece of keyed state: its name, kind and serializers. Specs are immutable; an
 * operator registers its specs with its {@link KeyedStateStore} before processing records.
 *
 * @param <S> the state handle type ({@link ValueState}, {@link ListState} or {@link MapState})
 */
public final class StateSpec<S> {
  /** The kinds of state. */
  public enum Kind {
    /** One value. */
    VALUE,
    /** A list of values. */
    LIST,
    /** A map. */
    MAP
  }

  private final String name;
  private final Kind kind;
  private final Serde<Object> serde;
  private final Serde<Object> mapKeySerde;

  @SuppressWarnings("unchecked")
  private StateSpec(String name, Kind kind, Serde<?> serde, Serde<?> mapKeySerde) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank() || name.length() > 100) {
      throw new IllegalArgumentException(
          "A state name is 1 to 100 characters and not blank, got '" + name + "'");
    }
    this.name = name;
    this.kind = kind;
    this.serde = (Serde<Object>) Objects.requireNonNull(serde, "serde");
    this.mapKeySerde = (Serde<Object>) mapKeySerde;
  }

  /** A value state whose values are written with {@link Serdes#auto()}. */
  public static <T> StateSpec<ValueState<T>> value(String name) {
    return new StateSpec<>(name, Kind.VALUE, Serdes.auto(), null);
  }

  /** A value state. */
  public static <T> StateSpec<ValueState<T>> value(String name, Serde<T> serde) {
    return new StateSpec<>(name, Kind.VALUE, serde, null);
  }

  /** A list state whose elements are written with {@code serde}. */
  public static <T> StateSpec<ListState<T>> list(String name, Serde<T> serde) {
    return new StateSpec<>(name, Kind.LIST, serde, null);
  }

  /** A map state. */
  public static <K, V> StateSpec<MapState<K, V>> map(
      String name, Serde<K> keySerde, Serde<V> valueSerde) {
    return new StateSpec<>(
        name, Kind.MAP, valueSerde, Objects.requireNonNull(keySerde, "keySerde"));
  }

  /** The state's name, unique within its operator. */
  public String name() {
    return name;
  }

  /** The kind of state. */
  public Kind kind() {
    return kind;
  }

  /** The serializer of values (list elements, map values). */
  public Serde<Object> serde() {
    return serde;
  }

  /** The serializer of map keys (null unless a map state). */
  public Serde<Object> mapKeySerde() {
    return mapKeySerde;
  }

  @Override
  public String toString() {
    return kind.name().toLowerCase(java.util.Locale.ROOT) + " state '" + name + "'";
  }
}
