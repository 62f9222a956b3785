package dev.statekit.entry.internal;

import java.net.URI;
import java.util.Objects;

/**
 * A source the application declared (a queue, stream, table or schedule rule) by name, URL or ARN:
 * what an event's source ARN must match. A name matches that name in any account; a queue URL also
 * fixes the account (and the region, for AWS's hosts); an ARN fixes all of them.
 *
 * @param kind the kind of source
 * @param name its name
 * @param partition the partition it must be in, or {@code null} for any
 * @param region the region it must be in, or {@code null} for any
 * @param account the account it must belong to, or {@code null} for any
 * @param declared what the application gave, for messages
 */
public record DeclaredSource(
    SourceKind kind,
    String name,
    String partition,
    String region,
    String account,
    String declared) {

  /**
   * Parses a declaration.
   *
   * @throws IllegalArgumentException if it is neither a valid name, nor (for a queue) a queue URL,
   *     nor an ARN of that kind
   */
  public static DeclaredSource of(SourceKind kind, String text) {
    Objects.requireNonNull(text, kind.label());
    String s = text.trim();
    if (s.startsWith("arn:")) {
      SourceArn arn = SourceArn.parseOrNull(kind, s);
      if (arn == null) {
        throw invalid(kind, text);
      }
      return new DeclaredSource(kind, arn.name(), arn.partition(), arn.region(), arn.account(), s);
    }
    if (kind == SourceKind.QUEUE && s.contains("://")) {
      return queueUrl(s, text);
    }
    if (!kind.isName(s)) {
      throw invalid(kind, text);
    }
    return new DeclaredSource(kind, s, null, null, null, s);
  }

  /** Whether {@code arn} names this source. */
  public boolean matches(SourceArn arn) {
    return arn.kind() == kind
        && arn.name().equals(name)
        && (partition == null || partition.equals(arn.partition()))
        && (region == null || region.equals(arn.region()))
        && (account == null || account.equals(arn.account()));
  }

  /** {@code https://sqs.eu-west-1.amazonaws.com/123456789012/name}, or a local server's URL. */
  private static DeclaredSource queueUrl(String s, String text) {
    URI uri;
    try {
      uri = URI.create(s);
    } catch (IllegalArgumentException e) {
      throw invalid(SourceKind.QUEUE, text);
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    String[] segments = path.replaceAll("^/+|/+$", "").split("/");
    String name = segments[segments.length - 1];
    if (uri.getHost() == null || !SourceKind.QUEUE.isName(name)) {
      throw invalid(SourceKind.QUEUE, text);
    }
    String account =
        segments.length >= 2 && segments[segments.length - 2].matches("[0-9]{12}")
            ? segments[segments.length - 2]
            : null;
    String host = uri.getHost();
    String region = null;
    String partition = null;
    if (host.startsWith("sqs.") && host.contains(".amazonaws.com")) {
      region = host.substring("sqs.".length(), host.indexOf(".amazonaws.com"));
      partition = host.endsWith(".amazonaws.com.cn") ? "aws-cn" : null;
    }
    return new DeclaredSource(SourceKind.QUEUE, name, partition, region, account, s);
  }

  private static IllegalArgumentException invalid(SourceKind kind, String text) {
    return new IllegalArgumentException(
        "'"
            + text
            + "' names no "
            + kind.label()
            + ": give its name, "
            + (kind == SourceKind.QUEUE ? "its URL " : "")
            + "or its ARN (arn:aws:"
            + kind.service()
            + ":region:account:...)");
  }

  @Override
  public String toString() {
    return kind.label() + " " + declared;
  }
}
