package dev.statekit.http;

import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.types.TypeName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Requests whose framing RFC 9112 calls faulty, sent over a socket: the endpoint must refuse them
 * (or at least close the connection after answering), never frame them its own way and go on
 * reading the connection, since a proxy in front may have framed the same bytes otherwise (request
 * smuggling).
 */
class RequestFramingOverTheWireTest {
  private static final TypeName ECHO = TypeName.of("test", "echo");
  private static final Duration WAIT = Duration.ofSeconds(2);

  private final RequestReplyHandler handler =
      new RequestReplyHandler(
          StatefulFunctions.builder().withFunction(ECHO, (context, message) -> {}).build());

  /**
   * A field value is VCHARs and SP/HTAB between them (RFC 9110 5.5): a vertical tab before {@code
   * chunked} makes the value invalid, and a proxy that reads it as an unknown coding frames the
   * bytes differently. The endpoint strips it away as if it were whitespace and reads the body as
   * chunked.
   */
  @Test
  void aControlCharacterAtTheEdgeOfAFramingHeaderIsRefused() throws Exception {
    for (String value : new String[] {"\u000bchunked", "chunked\u000c", "\u001fchunked"}) {
      String answer =
          exchange(
              head("POST / HTTP/1.1", "Host: x", "Transfer-Encoding: " + value), chunked(body()));
      assertTrue(
          answer.startsWith("HTTP/1.1 400"),
          "Transfer-Encoding '" + escape(value) + "' should be refused, got: " + firstLine(answer));
    }
    byte[] body = body();
    String answer =
        exchange(
            head("POST / HTTP/1.1", "Host: x", "Content-Length: " + body.length + "\u000b"), body);
    assertTrue(
        answer.startsWith("HTTP/1.1 400"),
        "Content-Length with a trailing vertical tab should be refused, got: " + firstLine(answer));
  }

  /**
   * RFC 9112 6.1: a server that receives an HTTP/1.0 message with Transfer-Encoding MUST treat its
   * framing as faulty and close the connection after it. Kept alive, the bytes after the chunked
   * body are read as the next request.
   */
  @Test
  void anHttp10RequestWithTransferEncodingDoesNotKeepTheConnection() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write(
        head("POST / HTTP/1.0", "Connection: keep-alive", "Transfer-Encoding: chunked")
            .getBytes(StandardCharsets.US_ASCII));
    bytes.write(chunked(body()));
    bytes.write(RawHttp.post("echo", true));
    String answers = exchange(bytes.toByteArray());
    assertEquals(
        1,
        answers.split("HTTP/1.1 ", -1).length - 1,
        "one answer, then the connection closes; got: " + answers.replace("\r\n", " | "));
  }

  /** RFC 9112 3.2: more than one Host field line MUST be answered 400. */
  @Test
  void twoHostHeadersAreRefused() throws Exception {
    byte[] body = body();
    String answer =
        exchange(
            head("POST / HTTP/1.1", "Host: a", "Host: b", "Content-Length: " + body.length), body);
    assertTrue(answer.startsWith("HTTP/1.1 400"), "got: " + firstLine(answer));
  }

  /**
   * A chunk size is 1*HEXDIG and a Content-Length 1*DIGIT (RFC 9112 7.1, RFC 9110 8.6): leading
   * zeros make neither a large number. A length of 5 so written is not over any limit.
   */
  @Test
  void leadingZerosDoNotMakeALengthTooLarge() throws Exception {
    byte[] body = body();
    String zeros = "0".repeat(20);
    ByteArrayOutputStream chunks = new ByteArrayOutputStream();
    chunks.write(
        (zeros + Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    chunks.write(body);
    chunks.write(("\r\n" + zeros + "0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    String answer =
        exchange(
            head("POST / HTTP/1.1", "Host: x", "Transfer-Encoding: chunked", "Connection: close"),
            chunks.toByteArray());
    assertTrue(answer.startsWith("HTTP/1.1 200"), "chunk size with leading zeros: " + answer);
    answer =
        exchange(
            head(
                "POST / HTTP/1.1",
                "Host: x",
                "Content-Length: " + zeros + body.length,
                "Connection: close"),
            body);
    assertTrue(answer.startsWith("HTTP/1.1 200"), "Content-Length with leading zeros: " + answer);
  }

  private String exchange(String head, byte[] body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write(head.getBytes(StandardCharsets.ISO_8859_1));
    bytes.write(body);
    return exchange(bytes.toByteArray());
  }

  /** Sends {@code bytes} on a new connection; what came back until closed or {@link #WAIT}. */
  private String exchange(byte[] bytes) throws IOException {
    try (FunctionHttpServer server = FunctionHttpServer.builder(handler).port(0).start();
        Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.getOutputStream().write(bytes);
      return RawHttp.readUntilClosed(socket, WAIT);
    }
  }

  private static String head(String... lines) {
    return String.join("\r\n", lines) + "\r\n\r\n";
  }

  private static byte[] body() throws IOException {
    return request("test", "echo", "a").message(string("hi")).bytes();
  }

  private static byte[] chunked(byte[] body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    bytes.write(body);
    bytes.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    return bytes.toByteArray();
  }

  private static String firstLine(String answer) {
    int end = answer.indexOf("\r\n");
    return end < 0 ? answer : answer.substring(0, end);
  }

  private static String escape(String value) {
    StringBuilder text = new StringBuilder();
    value.chars().forEach(c -> text.append(c < ' ' ? String.format("\\x%02x", c) : (char) c));
    return text.toString();
  }
}
