package dev.statekit.stream.internal;

import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.serde.Serde;
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
   * Whether {@code key}, a selector's answer, can key state: not null, and not an array (arrays are
   * equal only to themselves, so every record would get a state of its own).
   */
  public static boolean usable(Object key) {
    return key != null && !key.getClass().isArray();
  }

  /** The error for a key that is not {@link #usable}, the selector's answer for {@code record}. */
  public static IllegalArgumentException unusable(Object key, Object record) {
    if (key == null) {
      return new IllegalArgumentException(
          "The keyBy selector returned null for " + record + ": every record needs a key");
    }
    return new IllegalArgumentException(
        "The keyBy selector returned an array ("
            + key.getClass().getSimpleName()
            + ") for "
            + record
            + ": arrays are equal only to themselves, so no two records would share state. Key by"
            + " a String (for bytes, their Base64 or hex), a number or a record of the fields");
  }

  /** The description with the planned number of partitions. */
  public OperatorDescription describe(int planned) {
    return new OperatorDescription(
        "keyBy", label, Map.of("partitions", Integer.toString(planned), "routing", "stable-hash"));
  }
}
