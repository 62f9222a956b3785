package dev.statekit.http;

import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * RFC 9112 9.6: a server that receives the {@code close} connection option MUST close the
 * connection after its answer. Connection is a list: the option counts in any of its field lines,
 * beside other options, on HTTP/1.0 as on 1.1. Kept open, the bytes after the request are served as
 * another one, which the client meant to be the last.
 */
class ConnectionCloseOptionTest {
  private static final Duration WAIT = Duration.ofSeconds(2);

  private final RequestReplyHandler handler =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(TypeName.of("test", "echo"), (context, message) -> {})
              .build());

  @Test
  void closeInAnyConnectionLineClosesTheConnection() throws Exception {
    String[][] cases = {
      {"HTTP/1.1", "Connection: keep-alive\r\nConnection: close\r\n"},
      {"HTTP/1.0", "Connection: keep-alive, close\r\n"},
      {"HTTP/1.0", "Connection: keep-alive\r\nConnection: close\r\n"},
    };
    try (FunctionHttpServer server = FunctionHttpServer.builder(handler).port(0).start()) {
      for (String[] c : cases) {
        String answers = exchange(server, c[0], c[1]);
        assertEquals(
            1,
            answers.split("HTTP/1.1 ", -1).length - 1,
            c[0]
                + " with "
                + c[1].replace("\r\n", " | ")
                + ": one answer, then the connection closes; got: "
                + answers.replace("\r\n", " | "));
      }
    }
  }

  private static String exchange(FunctionHttpServer server, String version, String connection)
      throws IOException {
    byte[] body = request("test", "echo", "a").message(string("hi")).bytes();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write(
        ("POST / "
                + version
                + "\r\nHost: x\r\n"
                + connection
                + "Content-Length: "
                + body.length
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    bytes.write(body);
    bytes.write(RawHttp.post("echo", true));
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.getOutputStream().write(bytes.toByteArray());
      return RawHttp.readUntilClosed(socket, WAIT);
    }
  }
}
