package dev.statekit.http;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What the endpoint answers to one HTTP request: a status, a content type and a body; for a 405,
 * the methods allowed.
 */
public final class HttpAnswer {
  /** The content type of every successful answer, exactly as StateFun runtimes require it. */
  public static final String OCTET_STREAM = "application/octet-stream";

  static final String TEXT = "text/plain; charset=utf-8";
  private static final int MAX_MESSAGE_CHARS = 2000;

  private final int status;
  private final String contentType;
  private final byte[] body;
  private final String allow;

  private HttpAnswer(int status, String contentType, byte[] body, String allow) {
    this.status = status;
    this.contentType = contentType;
    this.body = body;
    this.allow = allow;
  }

  static HttpAnswer ok(byte[] fromFunction) {
    return new HttpAnswer(200, OCTET_STREAM, fromFunction, null);
  }

  static HttpAnswer error(int status, String message) {
    String text = message.length() > MAX_MESSAGE_CHARS ? message.substring(0, 2000) : message;
    return new HttpAnswer(status, TEXT, (text + "\n").getBytes(StandardCharsets.UTF_8), null);
  }

  static HttpAnswer json(int status, byte[] body) {
    return new HttpAnswer(status, CallRequests.JSON, body, null);
  }

  static HttpAnswer withAllow(HttpAnswer answer, String allow) {
    return new HttpAnswer(answer.status, answer.contentType, answer.body, allow);
  }

  static HttpAnswer methodNotAllowed(String method) {
    HttpAnswer text =
        error(405, "Method " + method + " is not allowed: send the ToFunction bytes with POST");
    return new HttpAnswer(405, text.contentType, text.body, "POST");
  }

  /** The HTTP status code. */
  public int status() {
    return status;
  }

  /** The {@code Content-Type} header. */
  public String contentType() {
    return contentType;
  }

  /** The body (not a copy). */
  public byte[] body() {
    return body;
  }

  /** The {@code Allow} header of a 405. */
  public Optional<String> allow() {
    return Optional.ofNullable(allow);
  }

  @Override
  public String toString() {
    return status + " " + contentType + " (" + body.length + " bytes)";
  }
}
