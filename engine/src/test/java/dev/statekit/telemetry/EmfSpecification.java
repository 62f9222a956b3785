package dev.statekit.telemetry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CloudWatch's Embedded Metric Format specification as a checker, written from the specification's
 * text (the {@code _aws} metadata, MetricDirective, DimensionSet, MetricDefinition, target members
 * and the limits), not from StateKit's writer: {@link #violations} lists every rule a document
 * breaks.
 */
public final class EmfSpecification {
  /** The units a MetricDefinition may name. */
  public static final Set<String> UNITS =
      Set.of(
          "Seconds",
          "Microseconds",
          "Milliseconds",
          "Bytes",
          "Kilobytes",
          "Megabytes",
          "Gigabytes",
          "Terabytes",
          "Bits",
          "Kilobits",
          "Megabits",
          "Gigabits",
          "Terabits",
          "Percent",
          "Count",
          "Bytes/Second",
          "Kilobytes/Second",
          "Megabytes/Second",
          "Gigabytes/Second",
          "Terabytes/Second",
          "Bits/Second",
          "Kilobits/Second",
          "Megabits/Second",
          "Gigabits/Second",
          "Terabits/Second",
          "Count/Second",
          "None");

  static final int MAX_METRICS_PER_DIRECTIVE = 100;
  static final int MAX_DIMENSIONS_PER_SET = 30;
  static final int MAX_VALUES_PER_METRIC = 100;
  static final int MAX_NAME_LENGTH = 255;
  static final int MAX_DIMENSION_VALUE_LENGTH = 1024;

  /** A CloudWatch Logs event is at most 256 KB; an EMF document is one event. */
  static final int MAX_EVENT_BYTES = 256 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();

  private EmfSpecification() {}

  /** The rules {@code line} breaks; empty if it is a valid EMF document. */
  public static List<String> violations(String line) {
    List<String> broken = new ArrayList<>();
    if (line.indexOf('\n') >= 0) {
      broken.add("a document is one log line, without line breaks");
    }
    if (line.getBytes(StandardCharsets.UTF_8).length > MAX_EVENT_BYTES) {
      broken.add("larger than a log event (256 KB)");
    }
    JsonNode root;
    try {
      root = JSON.readTree(line);
    } catch (Exception e) {
      broken.add("not JSON: " + e.getMessage());
      return broken;
    }
    if (root == null || !root.isObject()) {
      broken.add("the root is not an object");
      return broken;
    }
    JsonNode aws = root.get("_aws");
    if (aws == null || !aws.isObject()) {
      broken.add("no _aws metadata object");
      return broken;
    }
    JsonNode timestamp = aws.get("Timestamp");
    if (timestamp == null || !timestamp.isIntegralNumber() || timestamp.asLong() < 0) {
      broken.add("_aws.Timestamp must be a non-negative integer (epoch milliseconds)");
    }
    JsonNode directives = aws.get("CloudWatchMetrics");
    if (directives == null || !directives.isArray()) {
      broken.add("_aws.CloudWatchMetrics must be an array of MetricDirective");
      return broken;
    }
    for (JsonNode directive : directives) {
      checkDirective(root, directive, broken);
    }
    return broken;
  }

  private static void checkDirective(JsonNode root, JsonNode directive, List<String> broken) {
    if (!directive.isObject()) {
      broken.add("a MetricDirective is an object");
      return;
    }
    JsonNode namespace = directive.get("Namespace");
    if (!isName(namespace)) {
      broken.add("MetricDirective.Namespace must be a string of 1 to 255 characters");
    }
    JsonNode dimensions = directive.get("Dimensions");
    if (dimensions == null || !dimensions.isArray()) {
      broken.add("MetricDirective.Dimensions must be an array of DimensionSet");
    } else {
      for (JsonNode set : dimensions) {
        if (!set.isArray()) {
          broken.add("a DimensionSet is an array of strings");
          continue;
        }
        if (set.size() > MAX_DIMENSIONS_PER_SET) {
          broken.add("a DimensionSet holds at most 30 dimensions, got " + set.size());
        }
        for (JsonNode key : set) {
          if (!isName(key)) {
            broken.add("a dimension key must be a string of 1 to 255 characters: " + key);
            continue;
          }
          JsonNode value = root.get(key.asText());
          if (value == null || !value.isTextual()) {
            broken.add("dimension '" + key.asText() + "' has no string member at the root");
          } else if (value.asText().isEmpty()
              || value.asText().length() > MAX_DIMENSION_VALUE_LENGTH) {
            broken.add("dimension '" + key.asText() + "' must be 1 to 1024 characters");
          }
        }
      }
    }
    JsonNode metrics = directive.get("Metrics");
    if (metrics == null || !metrics.isArray()) {
      broken.add("MetricDirective.Metrics must be an array of MetricDefinition");
      return;
    }
    if (metrics.size() > MAX_METRICS_PER_DIRECTIVE) {
      broken.add("a MetricDirective holds at most 100 metrics, got " + metrics.size());
    }
    Set<String> names = new HashSet<>();
    for (JsonNode metric : metrics) {
      JsonNode name = metric.get("Name");
      if (!isName(name)) {
        broken.add("MetricDefinition.Name must be a string of 1 to 255 characters");
        continue;
      }
      if (!names.add(name.asText())) {
        broken.add("metric '" + name.asText() + "' defined twice in one directive");
      }
      JsonNode unit = metric.get("Unit");
      if (unit != null && (!unit.isTextual() || !UNITS.contains(unit.asText()))) {
        broken.add("metric '" + name.asText() + "' has an invalid unit " + unit);
      }
      JsonNode resolution = metric.get("StorageResolution");
      if (resolution != null && !(resolution.asInt() == 1 || resolution.asInt() == 60)) {
        broken.add("StorageResolution is 1 or 60");
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = metric.fields(); it.hasNext(); ) {
        String field = it.next().getKey();
        if (!Set.of("Name", "Unit", "StorageResolution").contains(field)) {
          broken.add("MetricDefinition has an unknown member '" + field + "'");
        }
      }
      JsonNode value = root.get(name.asText());
      if (value == null) {
        broken.add("metric '" + name.asText() + "' has no value at the root");
      } else if (value.isArray()) {
        if (value.size() > MAX_VALUES_PER_METRIC) {
          broken.add("metric '" + name.asText() + "' has more than 100 values: " + value.size());
        }
        if (value.isEmpty()) {
          broken.add("metric '" + name.asText() + "' has an empty array of values");
        }
        for (JsonNode v : value) {
          if (!v.isNumber()) {
            broken.add("metric '" + name.asText() + "' has a value that is no number: " + v);
          }
        }
      } else if (!value.isNumber()) {
        broken.add("metric '" + name.asText() + "' is neither a number nor an array of numbers");
      }
    }
  }

  private static boolean isName(JsonNode node) {
    return node != null
        && node.isTextual()
        && !node.asText().isBlank()
        && node.asText().length() <= MAX_NAME_LENGTH;
  }
}
