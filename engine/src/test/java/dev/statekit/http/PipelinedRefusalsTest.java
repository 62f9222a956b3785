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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * while the workers are busy and their queue full, one client pipelines a read buffer's worth (64
 * KiB) of tiny keep-alive requests. Each is refused with a 503 on the I/O thread itself, and {@link
 * ServerLoop} goes on to the next one by recursion (take, dispatch, respond, write, next, take,
 * ...), one level per request, about 2,500 deep: the I/O thread's stack overflows, {@code run()}
 * catches only {@code IOException | RuntimeException}, and the thread dies. The listening socket
 * stays open, so every later client connects and is never answered.
 */
class PipelinedRefusalsTest {
  private static final TypeName ECHO = TypeName.of("test", "echo");
  private static final TypeName SLOW = TypeName.of("test", "slow");
  private static final Duration WAIT = Duration.ofSeconds(3);

  private final CountDownLatch started = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final RequestReplyHandler handler =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(ECHO, (context, message) -> {})
              .withFunction(
                  SLOW,
                  (context, message) -> {
                    started.countDown();
                    release.await(10, TimeUnit.SECONDS);
                  })
              .build());

  @Test
  void aBurstOfPipelinedRequestsRefusedWhileBusyDoesNotStopTheServer() throws Exception {
    try (FunctionHttpServer server =
            FunctionHttpServer.builder(handler).port(0).threads(1).maxQueuedRequests(1).start();
        Socket busy = new Socket("127.0.0.1", server.port());
        Socket queued = new Socket("127.0.0.1", server.port());
        Socket burst = new Socket("127.0.0.1", server.port())) {
      busy.getOutputStream().write(RawHttp.post("slow", false));
      assertTrue(started.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the one worker is busy");
      queued
          .getOutputStream()
          .write(RawHttp.post("echo", false)); // takes the one place in the queue
      Thread.sleep(200);

      // 64 KiB of the smallest request that passes the precheck, kept alive: each a 503.
      byte[] one = "POST / HTTP/1.1\r\nHost:\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
      ByteArrayOutputStream many = new ByteArrayOutputStream();
      while (many.size() + one.length <= 64 * 1024) {
        many.write(one);
      }
      burst.getOutputStream().write(many.toByteArray());
      String refusals = readFor(burst, Duration.ofMillis(500));
      release.countDown();
      // Before the I/O thread died, the two that were running and queued would now be answered.
      String queuedAnswer = RawHttp.readHead(queued, WAIT);

      // The server must still be there for everyone else (a 503 while the queue drains is fine).
      String answer = "";
      long until = System.nanoTime() + WAIT.toNanos();
      do {
        try (Socket next = new Socket("127.0.0.1", server.port())) {
          next.getOutputStream().write(RawHttp.post("echo", true));
          answer = readFor(next, WAIT);
        }
      } while (answer.startsWith("HTTP/1.1 503") && System.nanoTime() < until);
      assertTrue(
          answer.startsWith("HTTP/1.1 200"),
          "the server stopped answering after "
              + (refusals.split("HTTP/1.1 503", -1).length - 1)
              + " refusals: '"
              + answer
              + "' (the queued request got '"
              + queuedAnswer
              + "')");
    }
  }

  /** What the server sends within {@code wait} (or until it closes). */
  private static String readFor(Socket socket, Duration wait) throws IOException {
    socket.setSoTimeout((int) wait.toMillis());
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n; (n = in.read(buffer)) != -1; ) {
        got.write(buffer, 0, n);
      }
    } catch (SocketTimeoutException e) {
      // the wait is over
    } catch (IOException e) {
      got.write((" [" + e + "]").getBytes(StandardCharsets.US_ASCII));
    }
    return got.toString(StandardCharsets.ISO_8859_1);
  }
}
