package dev.statekit.http;

import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.TypeName;
import dev.statekit.protocol.RequestReplyHandler;
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
 * body of 1 MB and send one byte used to hold all four workers for good; now they are answered 408
 * at their deadline while everyone else is served.
 */
class SlowClientsIT {
  private static final TypeName ECHO = TypeName.of("test", "echo");
  private static final TypeName SLOW = TypeName.of("test", "slow");
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final CountDownLatch release = new CountDownLatch(1);
  private final RequestReplyHandler handler =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(ECHO, (context, message) -> {})
              .withFunction(SLOW, (context, message) -> release.await(10, TimeUnit.SECONDS))
              .build());

  @Test
  void stalledBodiesGetA408AtTheirDeadlineAndNobodyElseWaits() throws Exception {
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler)
            .port(0)
            .threads(4)
            .requestTimeout(Duration.ofSeconds(1))
            .start()) {
      List<Socket> stalled = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        stalled.add(send(server, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\nx"));
      }
      long started = System.nanoTime();

      assertEquals(200, post(server, "echo", Duration.ofSeconds(2)).statusCode());
      assertTrue(System.nanoTime() - started < Duration.ofSeconds(1).toNanos(), "answered at once");
      for (Socket socket : stalled) {
        String answer = readAll(socket, Duration.ofSeconds(5));
        assertTrue(answer.startsWith("HTTP/1.1 408 Request Timeout"), answer);
        assertTrue(answer.contains("did not arrive within 1 s"), answer);
        socket.close();
      }
    }
  }

  @Test
  void headersSentByTheDropGetA408() throws Exception {
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler).port(0).headerTimeout(Duration.ofMillis(500)).start()) {
      try (Socket socket = send(server, "POST / HTTP/1.1\r\nHost: x\r\nContent-Ty")) {
        String answer = readAll(socket, Duration.ofSeconds(5));

        assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
        assertTrue(answer.contains("headers did not arrive within"), answer);
      }
    }
  }

  @Test
  void pastTheConnectionLimitANewClientGetsA503() throws Exception {
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler).port(0).maxConnections(3).start()) {
      List<Socket> held = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        held.add(send(server, "POST / HTTP/1.1\r\n"));
      }
      Thread.sleep(200);
      try (Socket extra = send(server, "")) {
        String answer = readAll(extra, Duration.ofSeconds(5));

        assertTrue(answer.startsWith("HTTP/1.1 503"), answer);
        assertTrue(answer.contains("Retry-After: 1"), answer);
        assertTrue(answer.contains("3 connections open"), answer);
      }
      for (Socket socket : held) {
        socket.close();
      }
      Thread.sleep(200);
      assertEquals(200, post(server, "echo", Duration.ofSeconds(2)).statusCode());
    }
  }

  @Test
  void pastTheQueueOfWaitingRequestsTheNextGetsA503() throws Exception {
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler).port(0).threads(1).maxQueuedRequests(1).start()) {
      CompletableFuture<HttpResponse<byte[]>> running = postAsync(server, "slow");
      Thread.sleep(300);
      CompletableFuture<HttpResponse<byte[]>> queued = postAsync(server, "slow");
      Thread.sleep(300);

      HttpResponse<byte[]> refused = post(server, "echo", Duration.ofSeconds(2));
      release.countDown();

      assertEquals(503, refused.statusCode());
      assertEquals("1", refused.headers().firstValue("Retry-After").orElseThrow());
      assertEquals(200, running.get(5, TimeUnit.SECONDS).statusCode());
      assertEquals(200, queued.get(5, TimeUnit.SECONDS).statusCode());
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
        String answers = readAll(socket, Duration.ofSeconds(5));

        assertEquals(2, answers.split("HTTP/1.1 200 OK", -1).length - 1, answers);
      }
    }
  }

  private static Socket send(FunctionHttpServer server, String text) throws IOException {
    Socket socket = new Socket("127.0.0.1", server.port());
    socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    return socket;
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
      got.write(" [no close within the wait]".getBytes(StandardCharsets.US_ASCII));
    }
    return got.toString(StandardCharsets.ISO_8859_1);
  }

  private static HttpResponse<byte[]> post(FunctionHttpServer server, String type, Duration wait)
      throws Exception {
    return CLIENT.send(requestFor(server, type, wait), BodyHandlers.ofByteArray());
  }

  private static CompletableFuture<HttpResponse<byte[]>> postAsync(
      FunctionHttpServer server, String type) {
    return CLIENT.sendAsync(
        requestFor(server, type, Duration.ofSeconds(10)), BodyHandlers.ofByteArray());
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
