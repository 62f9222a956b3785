package dev.statekit.entry.internal;

import java.util.regex.Pattern;

/**
 * The ARN an event names its source by ({@code eventSourceARN}, a scheduled event's {@code
 * resources}), parsed: the entry point routes a batch only if its source is one the application
 * declared.
 *
 * @param kind what kind of source it names
 * @param partition {@code aws}, {@code aws-cn}, ...
 * @param region the source's region
 * @param account the source's account, 12 digits
 * @param name the source's name
 * @param text the ARN as it arrived
 */
public record SourceArn(
    SourceKind kind, String partition, String region, String account, String name, String text) {
  /** Longer than any ARN AWS makes; a longer one is refused before it is split. */
  static final int MAX_LENGTH = 2048;

  private static final Pattern PARTITION = Pattern.compile("aws(-[a-z]{1,16}){0,3}");
  private static final Pattern REGION = Pattern.compile("[a-z0-9-]{1,32}");
  private static final Pattern ACCOUNT = Pattern.compile("[0-9]{12}");

  /**
   * {@code text} as an ARN of a source of {@code kind}, or {@code null} if it is not one (another
   * service, a malformed account or name).
   */
  public static SourceArn parseOrNull(SourceKind kind, String text) {
    if (text == null || text.length() > MAX_LENGTH || !text.startsWith("arn:")) {
      return null;
    }
    String[] parts = text.split(":", 6);
    if (parts.length != 6
        || !PARTITION.matcher(parts[1]).matches()
        || !parts[2].equals(kind.service())
        || !REGION.matcher(parts[3]).matches()
        || !ACCOUNT.matcher(parts[4]).matches()) {
      return null;
    }
    String name = kind.nameInResource(parts[5]);
    return name == null ? null : new SourceArn(kind, parts[1], parts[3], parts[4], name, text);
  }

  @Override
  public String toString() {
    return text;
  }
}
