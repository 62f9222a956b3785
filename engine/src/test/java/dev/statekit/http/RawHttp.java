package dev.statekit.http;

import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Requests written and answers read byte by byte, for tests of the endpoint's sockets. */
final class RawHttp {
  private RawHttp() {}

  /**
   * A StateFun request for {@code test/<type>/a} as HTTP/1.1 bytes, kept alive unless {@code
   * close}.
   */
  static byte[] post(String type, boolean close) throws IOException {
    byte[] body = request("test", type, "a").message(string("hi")).bytes();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write(
        ("POST / HTTP/1.1\r\nHost: x\r\n"
                + (close ? "Connection: close\r\n" : "")
                + "Content-Length: "
                + body.length
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    bytes.write(body);
    return bytes.toByteArray();
  }

  /** An answer's status line and headers, or what came within {@code wait}. */
  static String readHead(Socket socket, Duration wait) throws IOException {
    socket.setSoTimeout((int) wait.toMillis());
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    try {
      for (int b; (b = in.read()) != -1; ) {
        got.write(b);
        if (got.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
          break;
        }
      }
    } catch (SocketTimeoutException e) {
      got.write(" [nothing within the wait]".getBytes(StandardCharsets.US_ASCII));
    }
    return got.toString(StandardCharsets.ISO_8859_1);
  }

  /**
   * Everything the server sends until it closes the connection, ending in {@code " [still open]"}
   * if it had not closed it within {@code wait}.
   */
  static String readUntilClosed(Socket socket, Duration wait) throws IOException {
    socket.setSoTimeout((int) wait.toMillis());
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n; (n = in.read(buffer)) != -1; ) {
        got.write(buffer, 0, n);
      }
    } catch (SocketTimeoutException e) {
      got.write(" [still open]".getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      got.write((" [" + e + "]").getBytes(StandardCharsets.US_ASCII));
    }
    return got.toString(StandardCharsets.ISO_8859_1);
  }
}
