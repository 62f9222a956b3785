package dev.statekit.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.types.TypeName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * a function that throws an {@link Error} (an {@code AssertionError}, a {@code
 * NoClassDefFoundError}, an {@code OutOfMemoryError} for one oversized array, an {@code
 * ExceptionInInitializerError}) must still get its caller an answer. {@link HttpRouter#handle} only
 * catches {@code RuntimeException | StackOverflowError}; the Error escapes the worker's task in
 * {@link ServerLoop}, no completion is queued, and the connection stays in {@code WORKING} with a
 * deadline of {@code Long.MAX_VALUE} and no read interest: the caller never hears back, and the
 * connection slot is never given back even after the caller hangs up.
 */
class FunctionErrorAnswerTest {
  private static final TypeName BROKEN = TypeName.of("test", "broken");
  private static final TypeName ECHO = TypeName.of("test", "echo");
  private static final Duration WAIT = Duration.ofSeconds(3);

  private final RequestReplyHandler handler =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(
                  BROKEN,
                  (context, message) -> {
                    throw new AssertionError("an assertion in the function's own code");
                  })
              .withFunction(ECHO, (context, message) -> {})
              .build());

  @Test
  void aFunctionThrowingAnErrorIsAnswered500() throws Exception {
    try (FunctionHttpServer server = FunctionHttpServer.builder(handler).port(0).start();
        Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.getOutputStream().write(RawHttp.post("broken", false));
      String answer = readAll(socket, WAIT);

      assertTrue(answer.startsWith("HTTP/1.1 500"), "no 500 within " + WAIT + ": " + answer);
    }
  }

  @Test
  void aCallerThatGaveUpOnAnErrorDoesNotKeepItsConnectionSlot() throws Exception {
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler).port(0).maxConnections(1).start()) {
      try (Socket socket = new Socket("127.0.0.1", server.port())) {
        socket.getOutputStream().write(RawHttp.post("broken", false));
        readAll(socket, Duration.ofMillis(500)); // gives up, as StateFun does at its call timeout
      }
      // The first caller is gone; the one slot must be free again.
      String answer = "";
      long until = System.nanoTime() + WAIT.toNanos();
      while (System.nanoTime() < until) {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
          socket.getOutputStream().write(RawHttp.post("echo", true));
          answer = readAll(socket, WAIT);
        } catch (IOException e) {
          // Past maxConnections the server writes a 503 and closes at once: often a reset.
          answer = "refused: " + e;
        }
        if (answer.startsWith("HTTP/1.1 200")) {
          break;
        }
        Thread.sleep(100);
      }
      assertTrue(answer.startsWith("HTTP/1.1 200"), "the slot stays taken: " + answer);
    }
  }

  /** What the server sends until it closes, or until {@code wait} passes (marked). */
  private static String readAll(Socket socket, Duration wait) throws IOException {
    socket.setSoTimeout((int) wait.toMillis());
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[4096];
    try {
      for (int n; (n = in.read(buffer)) != -1; ) {
        got.write(buffer, 0, n);
        if (got.toString(StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
          socket.setSoTimeout(200); // the head is in; the body follows at once
        }
      }
    } catch (SocketTimeoutException e) {
      got.write(" [nothing more within the wait]".getBytes(StandardCharsets.US_ASCII));
    }
    return got.toString(StandardCharsets.ISO_8859_1);
  }
}
