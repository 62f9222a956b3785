package dev.statekit.local.template;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One resource of the template.
 *
 * @param logicalId its name in the template
 * @param type its CloudFormation type, e.g. {@code AWS::SQS::Queue}
 * @param properties its properties (an empty object if none)
 */
public record Resource(String logicalId, String type, JsonNode properties) {
  /** A property as text, or {@code fallback}. */
  public String text(String property, String fallback) {
    JsonNode value = properties.get(property);
    return value == null || value.isNull() || value.isContainerNode() ? fallback : value.asText();
  }

  /** A property as a number, or {@code fallback}. */
  public long number(String property, long fallback) {
    JsonNode value = properties.get(property);
    return value == null || !(value.isNumber() || value.isTextual())
        ? fallback
        : value.asLong(fallback);
  }

  /** A property as a boolean ({@code true}, {@code "true"}), or {@code fallback}. */
  public boolean flag(String property, boolean fallback) {
    JsonNode value = properties.get(property);
    return value == null || value.isNull()
        ? fallback
        : value.asBoolean(fallback) || "true".equalsIgnoreCase(value.asText());
  }
}
