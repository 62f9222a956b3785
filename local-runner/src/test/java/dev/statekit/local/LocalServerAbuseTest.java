package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.local.template.FunctionDef;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * the serve's one HTTP port (function URL, invoke API, {@code /statekit/state}, console) against
 * slow and oversized clients, over real sockets. {@link LocalLambdaServer} runs the JDK's {@code
 * HttpServer} on 8 executor threads with no deadline of any kind, and reads bodies whole with
 * {@code readAllBytes()}.
 */
class LocalServerAbuseTest {
  private static final Duration WAIT = Duration.ofSeconds(3);
  private static final int WORKERS = 8; // the fixed pool LocalLambdaServer had

  private LocalLambdaServer server;
  private final List<Socket> sockets = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    RequestStreamHandler echo = (in, out, context) -> out.write(in.readAllBytes());
    LocalFunction function =
        new LocalFunction(
            new FunctionDef("AppFunction", "x.Echo", Map.of(), List.of(), null, false, 512, 30),
            echo);
    server =
        LocalLambdaServer.start(
            "127.0.0.1",
            0,
            name -> name.equals("AppFunction") ? function : null,
            "AppFunction",
            new ControlApi(address -> "{\"address\":\"" + address + "\"}"),
            null);
  }

  @AfterEach
  void stop() throws IOException {
    for (Socket socket : sockets) {
      socket.close();
    }
    server.close();
  }

  /**
   * Eight clients that sent a request's first line and then nothing (slowloris) held all eight
   * executor threads (the JDK server reads the headers on them, with no timeout): the state, the
   * function URL and the console were no longer answered, for as long as the clients liked.
   */
  @Test
  void eightStalledRequestLinesDoNotSilenceTheServe() throws Exception {
    for (int i = 0; i < WORKERS; i++) {
      sockets.add(send("GET /statekit/state/a/b/c HTTP/1.1\r\n"));
    }
    Thread.sleep(300); // let the server hand each to a thread

    try (Socket probe = send("GET /statekit/state/a/b/c HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) {
      String answer = readHead(probe, WAIT);
      assertTrue(answer.startsWith("HTTP/1.1 200"), "not answered within " + WAIT + ": " + answer);
    }
  }

  /**
   * A body over Lambda's 6 MB (Lambda refuses such an invoke payload with 413) is refused before it
   * is read: it was read whole, the thread waiting for the body and memory growing with it.
   */
  @Test
  void aDeclaredHugeBodyIsRefusedBeforeItIsRead() throws Exception {
    for (String path : new String[] {"/2015-03-31/functions/AppFunction/invocations", "/a/b"}) {
      try (Socket socket =
          send(
              "POST "
                  + path
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4000000000\r\n"
                  + "Content-Type: application/octet-stream\r\n\r\n")) {
        String answer = readHead(socket, WAIT);
        assertTrue(
            answer.startsWith("HTTP/1.1 413"), path + ": no 413 within " + WAIT + ": " + answer);
      }
    }
  }

  private Socket send(String text) throws IOException {
    Socket socket = new Socket("127.0.0.1", server.url().getPort());
    socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    return socket;
  }

  /** The answer's status line and headers, or what came before {@code wait} passed (marked). */
  private static String readHead(Socket socket, Duration wait) throws IOException {
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
      got.write(" [nothing more within the wait]".getBytes(StandardCharsets.US_ASCII));
    }
    return got.toString(StandardCharsets.ISO_8859_1);
  }
}
