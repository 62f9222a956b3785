package dev.statekit.telemetry;

import java.util.Objects;

/**
 * Records a metric into the current invocation's metrics ({@link Telemetry}); outside an invocation
 * it does nothing, so code that records costs nothing where no one listens.
 */
public final class Metrics {
  private Metrics() {}

  /** Adds {@code value} to a function-runtime metric. */
  public static void add(Metric metric, double value) {
    Telemetry.record(Objects.requireNonNull(metric, "metric"), null, value);
  }

  /** Adds {@code value} to a pipeline's metric. */
  public static void add(Metric metric, String pipeline, double value) {
    Telemetry.record(
        Objects.requireNonNull(metric, "metric"),
        Objects.requireNonNull(pipeline, "pipeline"),
        value);
  }
}
