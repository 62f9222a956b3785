package dev.statekit.local.template;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One entry of a function's {@code Events}: an SQS queue, a Kinesis stream, a schedule, ...
 *
 * @param name the event's name in the template
 * @param type {@code SQS}, {@code Kinesis}, {@code DynamoDB}, {@code Schedule}, ...
 * @param properties its properties
 */
public record EventSource(String name, String type, JsonNode properties) {
  /** The logical id of the queue, stream or table the event reads ({@code null} for a schedule). */
  public String sourceLogicalId() {
    JsonNode source =
        switch (type) {
          case "SQS" -> properties.get("Queue");
          case "Kinesis", "DynamoDB" -> properties.get("Stream");
          default -> null;
        };
    return Intrinsics.referencedLogicalId(source);
  }

  /** A numeric property, or {@code fallback}. */
  public long number(String property, long fallback) {
    JsonNode value = properties.get(property);
    return value == null ? fallback : value.asLong(fallback);
  }

  /**
   * False if the template switches the event source off ({@code Enabled: false}, or a schedule's
   * {@code State: DISABLED}).
   */
  public boolean enabled() {
    JsonNode enabled = properties.get("Enabled");
    if (enabled != null && !enabled.asBoolean(true)) {
      return false;
    }
    return !"DISABLED".equalsIgnoreCase(properties.path("State").asText(""));
  }

  /** True if {@code FunctionResponseTypes} holds {@code ReportBatchItemFailures}. */
  public boolean reportsBatchItemFailures() {
    for (JsonNode type : properties.path("FunctionResponseTypes")) {
      if (type.asText().equals("ReportBatchItemFailures")) {
        return true;
      }
    }
    return false;
  }
}
