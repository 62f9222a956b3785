package dev.statekit.entry.internal;

import java.util.regex.Pattern;

/**
 * The kinds of event source the entry point routes by name: what AWS service's ARN names them, how
 * that ARN's resource part spells the name, and which names the service allows.
 */
public enum SourceKind {
  /** An SQS queue: {@code arn:aws:sqs:region:account:name}. */
  QUEUE("queue", "sqs", "", "[A-Za-z0-9_-]{1,75}(\\.fifo)?|[A-Za-z0-9_-]{1,80}"),
  /** A Kinesis stream: {@code arn:aws:kinesis:region:account:stream/name}. */
  STREAM("Kinesis stream", "kinesis", "stream/", "[A-Za-z0-9_.-]{1,128}"),
  /** A DynamoDB table's stream: {@code arn:aws:dynamodb:region:account:table/name/stream/label}. */
  TABLE("DynamoDB stream of table", "dynamodb", "table/", "[A-Za-z0-9_.-]{3,255}"),
  /** An EventBridge rule: {@code arn:aws:events:region:account:rule/name}. */
  RULE("schedule rule", "events", "rule/", "[A-Za-z0-9_.-]{1,64}");

  private final String label;
  private final String service;
  private final String resourcePrefix;
  private final Pattern name;

  SourceKind(String label, String service, String resourcePrefix, String name) {
    this.label = label;
    this.service = service;
    this.resourcePrefix = resourcePrefix;
    this.name = Pattern.compile(name);
  }

  /** How messages name the kind: "queue", "Kinesis stream", ... */
  public String label() {
    return label;
  }

  /** The service part of its ARNs. */
  String service() {
    return service;
  }

  /**
   * The source's name in the resource part of one of its ARNs, or {@code null} if the resource is
   * not of this kind. A stream's consumer, a table stream's label and a rule's event bus are not
   * part of the name.
   */
  String nameInResource(String resource) {
    if (!resource.startsWith(resourcePrefix)) {
      return null;
    }
    String rest = resource.substring(resourcePrefix.length());
    String found =
        switch (this) {
          case QUEUE -> rest;
          case STREAM, TABLE -> rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest;
          // A rule on a custom event bus is rule/bus/name.
          case RULE -> rest.contains("/") ? rest.substring(rest.lastIndexOf('/') + 1) : rest;
        };
    return isName(found) ? found : null;
  }

  /** Whether the service allows {@code text} as a name of this kind. */
  boolean isName(String text) {
    return name.matcher(text).matches();
  }
}
