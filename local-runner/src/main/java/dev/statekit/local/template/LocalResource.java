package dev.statekit.local.template;

import java.util.Map;

/**
 * A resource of the template as it exists locally (or on AWS): what {@code Ref} gives and the
 * attributes {@code Fn::GetAtt} reads.
 *
 * @param logicalId its name in the template
 * @param type its CloudFormation type
 * @param ref the value of {@code Ref}: a table or stream name, a queue URL
 * @param attributes {@code Arn}, {@code QueueName}, ... and their values
 */
public record LocalResource(
    String logicalId, String type, String ref, Map<String, String> attributes) {
  /** Copies the attributes. */
  public LocalResource {
    attributes = Map.copyOf(attributes);
  }

  /**
   * An attribute's value.
   *
   * @throws IllegalArgumentException if the resource has no such attribute locally
   */
  public String attribute(String name) {
    String value = attributes.get(name);
    if (value == null) {
      throw new IllegalArgumentException(
          logicalId
              + " ("
              + type
              + ") has no attribute "
              + name
              + " here; it has "
              + attributes.keySet());
    }
    return value;
  }
}
