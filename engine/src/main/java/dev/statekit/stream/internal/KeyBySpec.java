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

  /** The description with the planned number of partitions. */
  public OperatorDescription describe(int planned) {
    return new OperatorDescription(
        "keyBy", label, Map.of("partitions", Integer.toString(planned), "routing", "stable-hash"));
  }
}
