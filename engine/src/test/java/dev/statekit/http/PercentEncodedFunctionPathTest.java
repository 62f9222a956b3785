package dev.statekit.http;

import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
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
 * A function's own path accepts only requests for its type. A path is the same path with any of its
 * characters percent-encoded (RFC 3986 6.2.2.2 for unreserved ones; a client's URL library encodes
 * what a URL can't hold, such as a space): so written, it must still be that function's path, not
 * the catch-all that serves requests for any type.
 */
class PercentEncodedFunctionPathTest {
  private static final Duration WAIT = Duration.ofSeconds(2);

  private final RequestReplyHandler handler =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(TypeName.of("test", "echo"), (context, message) -> {})
              .withFunction(TypeName.of("test", "other"), (context, message) -> {})
              .withFunction(TypeName.of("test", "two words"), (context, message) -> {})
              .build());

  @Test
  void aRequestForAnotherTypeSentToAnEncodedFunctionPathIsRefused() throws Exception {
    try (FunctionHttpServer server = FunctionHttpServer.builder(handler).port(0).start()) {
      for (String path : new String[] {"/test/echo", "/test/%65cho", "/%74est/ech%6F"}) {
        String answer = post(server, path, "other");
        assertTrue(
            answer.startsWith("HTTP/1.1 400"),
            "a request for test/other sent to " + path + " should be refused, got: " + answer);
      }
      String answer = post(server, "/test/two%20words", "other");
      assertTrue(
          answer.startsWith("HTTP/1.1 400"),
          "a request for test/other sent to /test/two%20words should be refused, got: " + answer);
      answer = post(server, "/test/two%20words", "two words");
      assertTrue(answer.startsWith("HTTP/1.1 200"), "its own type is served, got: " + answer);
    }
  }

  private static String post(FunctionHttpServer server, String path, String type)
      throws IOException {
    byte[] body = request("test", type, "a").message(string("hi")).bytes();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write(
        ("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    bytes.write(body);
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.getOutputStream().write(bytes.toByteArray());
      String head = RawHttp.readHead(socket, WAIT);
      int end = head.indexOf("\r\n");
      return end < 0 ? head : head.substring(0, end);
    }
  }
}
