package dev.statekit.stream.internal;

import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.serde.Serde;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;
import java.util.function.Function;

/**
 * keyBy: where a stage ends and a keyed stage of {@code partitions} workers begins.
 *
 * @param partitions the number of workers, 0 for the run's default parallelism
 */
public record KeyBySpec(
    Function<Object, Object> selector, int partitions, Serde<Object> keySerde, String label) {
  /** Validates the partition count. */
  public KeyBySpec {
    if (partitions < 0 || partitions > 1024) {
      throw new IllegalArgumentException(
          "keyBy partitions are 1 to 1024 (or 0 for the run's parallelism), got " + partitions);
    }
  }

  /**
   * Whether {@code key}, a selector's answer, can key state: not null, and neither an array nor a
   * record or collection holding one (arrays are equal only to themselves, and so are records and
   * lists of them: every record would get a state of its own).
   */
  public static boolean usable(Object key) {
    return key != null
        && !BY_IDENTITY.get(key.getClass())
        && !(key instanceof Collection<?> values && holdsArray(values));
  }

  /** Types equal only to themselves by what they hold: arrays, records with an array part. */
  private static final ClassValue<Boolean> BY_IDENTITY =
      new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
          return holdsArrayType(type, new java.util.HashSet<>());
        }
      };

  private static boolean holdsArrayType(Class<?> type, java.util.Set<Class<?>> seen) {
    if (type.isArray()) {
      return true;
    }
    if (type.isRecord() && seen.add(type)) {
      for (RecordComponent part : type.getRecordComponents()) {
        if (holdsArrayType(part.getType(), seen)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean holdsArray(Collection<?> values) {
    for (Object value : values) {
      if (value != null && !usable(value)) {
        return true;
      }
    }
    return false;
  }

  /** The error for a key that is not {@link #usable}, the selector's answer for {@code record}. */
  public static IllegalArgumentException unusable(Object key, Object record) {
    if (key == null) {
      return new IllegalArgumentException(
          "The keyBy selector returned null for " + record + ": every record needs a key");
    }
    return new IllegalArgumentException(
        "The keyBy selector returned "
            + (key.getClass().isArray() ? "an array (" : "a key holding an array (")
            + key.getClass().getSimpleName()
            + ") for "
            + record
            + ": arrays are equal only to themselves, so no two records would share state. Key by"
            + " a String (for bytes, their Base64 or hex), a number or a record of such fields");
  }

  /** The description with the planned number of partitions. */
  public OperatorDescription describe(int planned) {
    return new OperatorDescription(
        "keyBy", label, Map.of("partitions", Integer.toString(planned), "routing", "stable-hash"));
  }
}
