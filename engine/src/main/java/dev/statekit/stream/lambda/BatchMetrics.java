package dev.statekit.stream.lambda;

import dev.statekit.telemetry.Metric;
import dev.statekit.telemetry.Metrics;

/** A batch's figures, into the invocation's metrics under its pipeline's name. */
final class BatchMetrics {
  private BatchMetrics() {}

  static void record(String pipeline, BatchResult result, long startedNanos, long nowMillis) {
    Metrics.add(Metric.PIPELINE_RECORDS, pipeline, result.applied());
    Metrics.add(Metric.WINDOWS_FIRED, pipeline, result.windowsFired());
    Metrics.add(Metric.LATE_RECORDS, pipeline, result.late());
    if (result.watermark() != Long.MIN_VALUE) {
      // One value per batch, so per split: the Maximum statistic is the split furthest behind.
      Metrics.add(Metric.WATERMARK_LAG, pipeline, Math.max(0, nowMillis - result.watermark()));
    }
    Metrics.add(Metric.BATCH_DURATION, pipeline, (System.nanoTime() - startedNanos) / 1_000_000.0);
  }
}
