package dev.statekit.http;

import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.types.TypeName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, case 1: slow and stalled clients over real sockets. Four connections that declare a
 * body of 1 MB and send one byte used to hold all four workers for good; now they hold a connection
 * slot each until their deadline, when they are answered 408, and everyone else is served.
 *
 * <p>The machine running these may be loaded: each test waits for what the server did (an answer, a
 * connection closed, a function started), never for a fixed time, and only a deadline's lower bound
 * is checked against the clock.
 */
class SlowClientsIT {
  private static final TypeName ECHO = TypeName.of("test", "echo");
  private static final TypeName SLOW = TypeName.of("test", "slow");
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String NO_CLOSE = " [no close within the wait]";
  private static final String STALLED_BODY =
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\nx";

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
                    release.await(60, TimeUnit.SECONDS);
                  })
              .build());

  @Test
  void fourStalledBodiesHoldNoWorker() throws Exception {
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler).port(0).threads(4).start()) {
      List<Socket> stalled = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        stalled.add(send(server, STALLED_BODY));
      }

      assertEquals(200, post(server, "echo", WAIT).statusCode());
      // Served while the four were still held open, far before their deadline (60 s).
      for (Socket socket : stalled) {
        assertTrue(unanswered(socket), "still held, not answered yet");
        socket.close();
      }
    }
  }

  @Test
  void aStalledBodyGetsA408AtItsDeadline() throws Exception {
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler).port(0).requestTimeout(Duration.ofSeconds(1)).start()) {
      long sent = System.nanoTime();
      try (Socket socket = send(server, STALLED_BODY)) {
        String answer = readAll(socket, WAIT);

        assertTrue(answer.startsWith("HTTP/1.1 408 Request Timeout"), answer);
        assertTrue(answer.contains("did not arrive within 1 s"), answer);
        assertTrue(System.nanoTime() - sent >= Duration.ofSeconds(1).toNanos(), "not before it");
      }
    }
  }

  @Test
  void headersSentByTheDropGetA408() throws Exception {
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler).port(0).headerTimeout(Duration.ofMillis(500)).start()) {
      try (Socket socket = send(server, "POST / HTTP/1.1\r\nHost: x\r\nContent-Ty")) {
        String answer = readAll(socket, WAIT);

        assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
        assertTrue(answer.contains("headers did not arrive within"), answer);
      }
    }
  }

  @Test
  void pastTheConnectionLimitANewClientGetsA503() throws Exception {
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler)
            .port(0)
            .maxConnections(3)
            .headerTimeout(Duration.ofSeconds(60))
            .start()) {
      // Connected before the extra one, so accepted before it (the accept queue is first in, first
      // out): they are the three open connections when it comes.
      List<Socket> held = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        held.add(send(server, "POST / HTTP/1.1\r\n"));
      }
      try (Socket extra = send(server, "")) {
        String answer = readAll(extra, WAIT);

        assertTrue(answer.startsWith("HTTP/1.1 503"), answer);
        assertTrue(answer.contains("Retry-After: 1"), answer);
        assertTrue(answer.contains("3 connections open"), answer);
      }
      for (Socket socket : held) {
        // The server closes its side once it has read the end and let go of the connection.
        socket.shutdownOutput();
        assertEquals("", readAll(socket, WAIT), "closed by the server, unanswered");
        socket.close();
      }
      assertEquals(200, post(server, "echo", WAIT).statusCode());
    }
  }

  @Test
  void pastTheQueueOfWaitingRequestsTheNextGetsA503() throws Exception {
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler).port(0).threads(1).maxQueuedRequests(1).start()) {
      CompletableFuture<HttpResponse<byte[]>> running = postAsync(server, "slow");
      assertTrue(started.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the one worker is busy");

      // One of the two takes the one place in the queue, whichever comes first; the other is
      // answered while the one worker is still busy, which only a refusal can be.
      CompletableFuture<HttpResponse<byte[]>> first = postAsync(server, "echo");
      CompletableFuture<HttpResponse<byte[]>> second = postAsync(server, "echo");
      HttpResponse<?> refused =
          (HttpResponse<?>)
              CompletableFuture.anyOf(first, second).get(WAIT.toSeconds(), TimeUnit.SECONDS);
      release.countDown();

      assertEquals(503, refused.statusCode());
      assertEquals("1", refused.headers().firstValue("Retry-After").orElseThrow());
      assertEquals(200, running.get(WAIT.toSeconds(), TimeUnit.SECONDS).statusCode());
      HttpResponse<byte[]> queued =
          (refused == first.getNow(null) ? second : first).get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertEquals(200, queued.statusCode());
    }
  }

  @Test
  void anIdleKeptAliveConnectionIsClosedAndAPipelinedOneServedInOrder() throws Exception {
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler).port(0).idleTimeout(Duration.ofMillis(500)).start()) {
      byte[] body = request("test", "echo", "a").message(string("hi")).bytes();
      String head = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n";
      ByteArrayOutputStream two = new ByteArrayOutputStream();
      for (int i = 0; i < 2; i++) {
        two.write(head.getBytes(StandardCharsets.US_ASCII));
        two.write(body);
      }
      try (Socket socket = new Socket("127.0.0.1", server.port())) {
        socket.getOutputStream().write(two.toByteArray());
        String answers = readAll(socket, WAIT);

        assertEquals(2, answers.split("HTTP/1.1 200 OK", -1).length - 1, answers);
        assertFalse(answers.endsWith(NO_CLOSE), "closed once idle: " + answers);
      }
    }
  }

  private static Socket send(FunctionHttpServer server, String text) throws IOException {
    Socket socket = new Socket("127.0.0.1", server.port());
    socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    return socket;
  }

  /** Whether the server has neither answered nor closed the connection so far. */
  private static boolean unanswered(Socket socket) throws IOException {
    socket.setSoTimeout(1);
    try {
      socket.getInputStream().read(); // a byte of an answer, or the end of the connection
      return false;
    } catch (SocketTimeoutException e) {
      return true;
    }
  }

  /** Everything the server sends until it closes the connection, or {@code wait} passes. */
  private static String readAll(Socket socket, Duration wait) throws IOException {
    socket.setSoTimeout((int) wait.toMillis());
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[4096];
    try {
      for (int n; (n = in.read(buffer)) != -1; ) {
        got.write(buffer, 0, n);
      }
    } catch (SocketTimeoutException e) {
      got.write(NO_CLOSE.getBytes(StandardCharsets.US_ASCII));
    }
    return got.toString(StandardCharsets.ISO_8859_1);
  }

  private static HttpResponse<byte[]> post(FunctionHttpServer server, String type, Duration wait)
      throws Exception {
    return CLIENT.send(requestFor(server, type, wait), BodyHandlers.ofByteArray());
  }

  private static CompletableFuture<HttpResponse<byte[]>> postAsync(
      FunctionHttpServer server, String type) {
    return CLIENT.sendAsync(requestFor(server, type, WAIT), BodyHandlers.ofByteArray());
  }

  private static HttpRequest requestFor(FunctionHttpServer server, String type, Duration wait) {
    return HttpRequest.newBuilder(server.url())
        .timeout(wait)
        .POST(
            HttpRequest.BodyPublishers.ofByteArray(
                request("test", type, "a").message(string("hi")).bytes()))
        .build();
  }
}
