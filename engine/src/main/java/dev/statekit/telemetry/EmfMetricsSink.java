package dev.statekit.telemetry;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Writes an invocation's metrics in CloudWatch's Embedded Metric Format: JSON documents, one line
 * each, in the function's log, that CloudWatch turns into metrics with no API call. A document
 * holds the {@code _aws} metadata ({@code Timestamp}, and {@code CloudWatchMetrics}: the namespace,
 * the dimension set and each metric's name and unit) and, at its root, the dimension values, each
 * metric's value (or values, for lateness and durations), the request id and the trace id.
 *
 * <p>The function runtime's metrics go in one document with the dimension {@code Application}; each
 * pipeline's in one with {@code Application} and {@code Pipeline}. EMF's limits are kept: at most
 * {@value #MAX_METRICS} metrics per document and {@value #MAX_VALUES} values per metric (more go to
 * further documents).
 *
 * <p>Written by StateKit rather than through a metrics library: the document is a few lines of
 * string building, where the libraries that write it bring logging and reflection-based JSON
 * binding to every cold start (see docs/operations.md).
 */
public final class EmfMetricsSink implements MetricsSink {
  /** The namespace's variable ({@code StateKit} by default). */
  public static final String NAMESPACE_VARIABLE = "STATEKIT_METRICS_NAMESPACE";

  /** The variable naming the application's dimension value (the function's name by default). */
  public static final String APPLICATION_VARIABLE = "STATEKIT_METRICS_APPLICATION";

  /** The variable that turns metrics off when {@code off}. */
  public static final String METRICS_VARIABLE = "STATEKIT_METRICS";

  /** EMF's limit of metrics in one document. */
  public static final int MAX_METRICS = 100;

  /** EMF's limit of values of one metric in one document. */
  public static final int MAX_VALUES = 100;

  private final String namespace;
  private final String application;
  private final Consumer<String> out;

  /**
   * Documents in {@code namespace} with {@code Application} = {@code application}, to {@code out}.
   */
  public EmfMetricsSink(String namespace, String application, Consumer<String> out) {
    this.namespace = requireName(namespace, "namespace");
    this.application = requireName(application, "application");
    this.out = Objects.requireNonNull(out, "out");
  }

  /** Documents to {@code out}, one line each. */
  public EmfMetricsSink(String namespace, String application, PrintStream out) {
    this(namespace, application, (Consumer<String>) out::println);
  }

  /**
   * The sink Lambda's environment calls for: EMF to standard output on Lambda (where {@code
   * AWS_LAMBDA_FUNCTION_NAME} is set) unless {@code STATEKIT_METRICS=off}; nothing elsewhere unless
   * {@code STATEKIT_METRICS=emf}.
   */
  public static MetricsSink fromEnvironment(Map<String, String> environment) {
    String switchValue = environment.getOrDefault(METRICS_VARIABLE, "");
    String function = environment.get("AWS_LAMBDA_FUNCTION_NAME");
    boolean on =
        switchValue.equalsIgnoreCase("emf")
            || (function != null && !switchValue.equalsIgnoreCase("off"));
    if (!on) {
      return MetricsSink.none();
    }
    String namespace = environment.getOrDefault(NAMESPACE_VARIABLE, "StateKit");
    String application =
        environment.getOrDefault(APPLICATION_VARIABLE, function == null ? "statekit" : function);
    return new EmfMetricsSink(namespace, application, System.out);
  }

  @Override
  public void publish(MetricsReport report) {
    documents(report).forEach(out);
  }

  /** The documents of {@code report}, one JSON text each. */
  public List<String> documents(MetricsReport report) {
    Map<String, List<MetricsReport.Series>> byPipeline = new LinkedHashMap<>();
    for (MetricsReport.Series series : report.series()) {
      byPipeline.computeIfAbsent(series.pipeline(), p -> new ArrayList<>()).add(series);
    }
    List<String> documents = new ArrayList<>();
    byPipeline.forEach(
        (pipeline, series) -> {
          // Slices: the n-th hundred values of every metric, at most a hundred metrics at a time.
          for (int from = 0; ; from += MAX_VALUES) {
            List<MetricsReport.Series> slice = new ArrayList<>();
            for (MetricsReport.Series s : series) {
              if (s.values().size() > from) {
                slice.add(
                    new MetricsReport.Series(
                        s.metric(),
                        s.pipeline(),
                        s.values().subList(from, Math.min(s.values().size(), from + MAX_VALUES))));
              }
            }
            if (slice.isEmpty()) {
              break;
            }
            for (int m = 0; m < slice.size(); m += MAX_METRICS) {
              documents.add(
                  document(
                      report, pipeline, slice.subList(m, Math.min(slice.size(), m + MAX_METRICS))));
            }
          }
        });
    return documents;
  }

  private String document(
      MetricsReport report, String pipeline, List<MetricsReport.Series> series) {
    StringBuilder out = new StringBuilder(512);
    out.append("{\"_aws\":{\"Timestamp\":")
        .append(report.timestampMillis())
        .append(",\"CloudWatchMetrics\":[{\"Namespace\":");
    JsonText.string(out, namespace);
    out.append(",\"Dimensions\":[[\"Application\"");
    if (pipeline != null) {
      out.append(",\"Pipeline\"");
    }
    out.append("]],\"Metrics\":[");
    for (int i = 0; i < series.size(); i++) {
      Metric metric = series.get(i).metric();
      out.append(i == 0 ? "" : ",").append("{\"Name\":");
      JsonText.string(out, metric.metricName());
      out.append(",\"Unit\":");
      JsonText.string(out, metric.unit().cloudWatchName());
      out.append('}');
    }
    out.append("]}]}");
    JsonText.field(out, "Application", application);
    if (pipeline != null) {
      JsonText.field(out, "Pipeline", pipeline);
    }
    for (MetricsReport.Series s : series) {
      out.append(',');
      JsonText.string(out, s.metric().metricName());
      out.append(':');
      if (s.values().size() == 1) {
        JsonText.number(out, s.values().get(0));
      } else {
        out.append('[');
        for (int i = 0; i < s.values().size(); i++) {
          if (i > 0) {
            out.append(',');
          }
          JsonText.number(out, s.values().get(i));
        }
        out.append(']');
      }
    }
    if (report.requestId() != null) {
      JsonText.field(out, "requestId", report.requestId());
    }
    if (report.traceId() != null) {
      JsonText.field(out, "traceId", report.traceId());
    }
    out.append('}');
    return out.toString();
  }

  private static String requireName(String value, String what) {
    Objects.requireNonNull(value, what);
    if (value.isBlank() || value.length() > 255) {
      throw new IllegalArgumentException(
          "The metrics " + what + " must be 1 to 255 characters, got '" + value + "'");
    }
    return value;
  }
}
