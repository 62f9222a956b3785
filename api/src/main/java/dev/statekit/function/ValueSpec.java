package dev.statekit.function;

import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A persisted value a function declares: its name, type and expiration. Immutable; build one with
 * {@code ValueSpec.named("seen").withIntType().thatExpireAfterCall(Duration.ofDays(1))} and keep it
 * in a constant, declared when the function is registered and used to read and write the value.
 *
 * @param <T> the Java type of the value
 */
public final class ValueSpec<T> {
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,199}");

  private final String name;
  private final Type<T> type;
  private final Expiration expiration;

  private ValueSpec(String name, Type<T> type, Expiration expiration) {
    this.name = name;
    this.type = type;
    this.expiration = expiration;
  }

  /**
   * Starts a value spec; choose the type next.
   *
   * @throws IllegalArgumentException if the name is not a valid state name (letters, digits and
   *     {@code _}, starting with a letter or {@code _}, at most 200 characters)
   */
  public static Untyped named(String name) {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "'"
              + name
              + "' is not a valid state name: use 1 to 200 letters, digits or '_', starting with a"
              + " letter or '_' (e.g. seen_count)");
    }
    return new Untyped(name);
  }

  /** The same value, expiring {@code duration} after its last write. */
  public ValueSpec<T> thatExpireAfterWrite(Duration duration) {
    return new ValueSpec<>(name, type, Expiration.expireAfterWriting(duration));
  }

  /** The same value, expiring {@code duration} after the last invocation that read or wrote it. */
  public ValueSpec<T> thatExpireAfterCall(Duration duration) {
    return new ValueSpec<>(name, type, Expiration.expireAfterCall(duration));
  }

  /** The state name, unique within the function. */
  public String name() {
    return name;
  }

  /** The value's type. */
  public Type<T> type() {
    return type;
  }

  /** The value type's name, as sent on the wire. */
  public TypeName typeName() {
    return type.typeName();
  }

  /** When the value expires. */
  public Expiration expiration() {
    return expiration;
  }

  @Override
  public String toString() {
    return name + " (" + type.typeName() + ", expires " + expiration + ")";
  }

  /** A named value spec that still needs a type. */
  public static final class Untyped {
    private final String name;

    private Untyped(String name) {
      this.name = name;
    }

    /** An {@code io.statefun.types/bool} value. */
    public ValueSpec<Boolean> withBooleanType() {
      return withCustomType(Types.booleanType());
    }

    /** An {@code io.statefun.types/int} value. */
    public ValueSpec<Integer> withIntType() {
      return withCustomType(Types.integerType());
    }

    /** An {@code io.statefun.types/long} value. */
    public ValueSpec<Long> withLongType() {
      return withCustomType(Types.longType());
    }

    /** An {@code io.statefun.types/float} value. */
    public ValueSpec<Float> withFloatType() {
      return withCustomType(Types.floatType());
    }

    /** An {@code io.statefun.types/double} value. */
    public ValueSpec<Double> withDoubleType() {
      return withCustomType(Types.doubleType());
    }

    /** An {@code io.statefun.types/string} value. */
    public ValueSpec<String> withUtf8StringType() {
      return withCustomType(Types.stringType());
    }

    /** A value of any {@link Type}: protobuf, JSON or user-defined (see {@link Types}). */
    public <T> ValueSpec<T> withCustomType(Type<T> type) {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(type.typeName(), "type.typeName()");
      return new ValueSpec<>(name, type, Expiration.none());
    }
  }
}
