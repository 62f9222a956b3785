package dev.statekit.telemetry;

/**
 * Where an invocation's metrics go when it ends: the port of StateKit's metrics. On Lambda, {@link
 * EmfMetricsSink} writes them to the log in CloudWatch's Embedded Metric Format; a test or a local
 * tool can collect the reports instead.
 */
@FunctionalInterface
public interface MetricsSink {
  /** Takes the metrics of one invocation (never called for an invocation that recorded none). */
  void publish(MetricsReport report);

  /** A sink that drops every report. */
  static MetricsSink none() {
    return report -> {};
  }
}
