package dev.statekit.telemetry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The metrics one invocation records, from any of its threads. Counts are summed as they come;
 * other values (lateness, lag, duration) are kept one by one, so their statistics stay exact.
 */
final class InvocationMetrics {
  private record Key(Metric metric, String pipeline) {}

  private final Map<Key, List<Double>> values = new LinkedHashMap<>();

  synchronized void add(Metric metric, String pipeline, double value) {
    List<Double> series =
        values.computeIfAbsent(
            new Key(metric, metric.perPipeline() ? pipeline : null), k -> new ArrayList<>());
    if (metric.unit() == Metric.Unit.COUNT && !series.isEmpty()) {
      series.set(0, series.get(0) + value);
    } else {
      series.add(value);
    }
  }

  synchronized boolean isEmpty() {
    return values.isEmpty();
  }

  synchronized List<MetricsReport.Series> series() {
    List<MetricsReport.Series> series = new ArrayList<>();
    values.forEach(
        (key, list) -> series.add(new MetricsReport.Series(key.metric, key.pipeline, list)));
    return series;
  }
}
