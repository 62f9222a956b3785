package dev.statekit.telemetry;

import java.util.List;
import java.util.Objects;

/**
 * The metrics one invocation recorded, handed to a {@link MetricsSink} when it ends.
 *
 * @param timestampMillis when the invocation ended, epoch milliseconds
 * @param requestId the invocation's request id, or {@code null}
 * @param traceId the invocation's trace id, or {@code null}
 * @param series every metric recorded, with its pipeline and values in the order recorded
 */
public record MetricsReport(
    long timestampMillis, String requestId, String traceId, List<Series> series) {
  /** Copies the list. */
  public MetricsReport {
    series = List.copyOf(series);
  }

  /**
   * The values of one metric (for one pipeline, if it is per pipeline).
   *
   * @param metric the metric
   * @param pipeline the pipeline's name, or {@code null} for a metric of the function runtime
   * @param values the values, in the order recorded; counts are summed into one value
   */
  public record Series(Metric metric, String pipeline, List<Double> values) {
    /** Checks the parts and copies the values. */
    public Series {
      Objects.requireNonNull(metric, "metric");
      values = List.copyOf(values);
    }

    /** The sum of the values. */
    public double sum() {
      double sum = 0;
      for (double value : values) {
        sum += value;
      }
      return sum;
    }
  }

  /** The series of {@code metric} (for any pipeline), summed; 0 if it was not recorded. */
  public double sum(Metric metric) {
    return series.stream().filter(s -> s.metric() == metric).mapToDouble(Series::sum).sum();
  }
}
