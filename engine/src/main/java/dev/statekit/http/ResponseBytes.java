package dev.statekit.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** An answer as the bytes of an HTTP/1.1 response. */
final class ResponseBytes {
  /** What a client that sent {@code Expect: 100-continue} waits for before the body. */
  static final byte[] CONTINUE =
      "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  private ResponseBytes() {}

  /**
   * The response to {@code answer}.
   *
   * @param head whether the request was a HEAD (the length is sent, the body is not)
   * @param close whether the connection closes after it
   */
  static ByteBuffer of(HttpAnswer answer, boolean head, boolean close) {
    StringBuilder text =
        new StringBuilder(160)
            .append("HTTP/1.1 ")
            .append(answer.status())
            .append(' ')
            .append(reason(answer.status()))
            .append("\r\nContent-Type: ")
            .append(answer.contentType())
            .append("\r\nContent-Length: ")
            .append(answer.body().length)
            .append("\r\n");
    answer.allow().ifPresent(allow -> text.append("Allow: ").append(allow).append("\r\n"));
    if (answer.status() == 503) {
      text.append("Retry-After: 1\r\n");
    }
    if (close) {
      text.append("Connection: close\r\n");
    }
    byte[] headers = text.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
    int bodyLength = head ? 0 : answer.body().length;
    ByteBuffer bytes = ByteBuffer.allocate(headers.length + bodyLength);
    bytes.put(headers);
    if (!head) {
      bytes.put(answer.body());
    }
    return bytes.flip();
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 408 -> "Request Timeout";
      case 413 -> "Content Too Large";
      case 414 -> "URI Too Long";
      case 415 -> "Unsupported Media Type";
      case 431 -> "Request Header Fields Too Large";
      case 500 -> "Internal Server Error";
      case 501 -> "Not Implemented";
      case 503 -> "Service Unavailable";
      case 505 -> "HTTP Version Not Supported";
      default -> "Status";
    };
  }
}
