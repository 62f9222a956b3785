package dev.statekit.http;

import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.protocol.PeerWire;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.types.TypeName;
import java.io.ByteArrayInputStream;
import java.net.BindException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The endpoint over real HTTP on the loopback interface. */
class FunctionHttpServerIT {
  private static final TypeName COUNTER = TypeName.of("test", "counter");
  private static final TypeName OTHER = TypeName.of("test", "other");
  private static final ValueSpec<Integer> SEEN = ValueSpec.named("seen").withIntType();
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private static FunctionHttpServer server;

  @BeforeAll
  static void start() throws Exception {
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(
                COUNTER,
                (context, message) -> {
                  if (message.asUtf8String().equals("boom")) {
                    throw new IllegalStateException("exploded on purpose");
                  }
                  int seen = context.storage().get(SEEN).orElse(0) + 1;
                  context.storage().set(SEEN, seen);
                  context.send(
                      EgressMessageBuilder.forEgress(COUNTER).withValue("seen " + seen).build());
                },
                SEEN)
            .withFunction(OTHER, (context, message) -> {})
            .build();
    server =
        FunctionHttpServer.builder(new RequestReplyHandler(functions))
            .port(0)
            .maxRequestBytes(4096)
            .start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void answersAToFunctionWithAnOctetStream() throws Exception {
    HttpResponse<byte[]> response = post("/", "application/octet-stream", counter("hi"));

    assertEquals(200, response.statusCode());
    assertEquals(List.of("application/octet-stream"), response.headers().allValues("Content-Type"));
    FromFunction answer = PeerWire.parse(response.body());
    assertEquals(
        PeerWire.integer(1), answer.getInvocationResult().getStateMutations(0).getStateValue());
  }

  @Test
  void theContentTypeMayBeAbsentButNotWrong() throws Exception {
    assertEquals(200, post("/", null, counter("hi")).statusCode());
    assertEquals(200, post("/", "Application/Octet-Stream; q=1", counter("hi")).statusCode());

    HttpResponse<byte[]> wrong = post("/", "application/json", counter("hi"));
    assertEquals(415, wrong.statusCode());
    assertTrue(text(wrong).contains("application/octet-stream"), text(wrong));
  }

  @Test
  void onlyPostIsAllowed() throws Exception {
    HttpResponse<byte[]> get =
        CLIENT.send(
            HttpRequest.newBuilder(url("/test/counter")).GET().build(), BodyHandlers.ofByteArray());
    HttpResponse<byte[]> put =
        send(HttpRequest.newBuilder(url("/")).PUT(BodyPublishers.ofByteArray(counter("x"))));

    assertEquals(405, get.statusCode());
    assertEquals("POST", get.headers().firstValue("Allow").orElseThrow());
    assertEquals(405, put.statusCode());
  }

  @Test
  void anEmptyBodyIsABadRequest() throws Exception {
    HttpResponse<byte[]> response = post("/", "application/octet-stream", new byte[0]);

    assertEquals(400, response.statusCode());
    assertTrue(text(response).contains("empty"), text(response));
  }

  @Test
  void aFailingFunctionIsA500WithoutAStackTrace() throws Exception {
    HttpResponse<byte[]> response = post("/", "application/octet-stream", counter("boom"));

    assertEquals(500, response.statusCode());
    assertTrue(text(response).contains("test/counter/a failed on message 1"), text(response));
    assertTrue(text(response).contains("(error "), text(response));
    assertFalse(text(response).contains("exploded on purpose"), text(response));
    assertFalse(text(response).contains("\tat "), text(response));
    assertTrue(
        response.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
  }

  @Test
  void badRequestsGetAShortReasonAndTheServerCarriesOn() throws Exception {
    HttpResponse<byte[]> garbage = post("/", null, "garbage!".getBytes());
    HttpResponse<byte[]> unknown =
        post("/", null, request("test", "nobody", "a").message(string("x")).bytes());

    assertEquals(400, garbage.statusCode());
    assertTrue(text(garbage).contains("ToFunction"), text(garbage));
    assertEquals(404, unknown.statusCode());
    assertTrue(text(unknown).contains("test/nobody"), text(unknown));
    assertEquals(200, post("/", null, counter("still up")).statusCode());
  }

  @Test
  void aFunctionPathTakesOnlyItsOwnTypeAndOtherPathsTakeAny() throws Exception {
    assertEquals(200, post("/test/counter", null, counter("a")).statusCode());
    assertEquals(200, post("/test/counter/", null, counter("a")).statusCode());
    HttpResponse<byte[]> mismatch = post("/test/other", null, counter("a"));
    assertEquals(400, mismatch.statusCode());
    assertTrue(text(mismatch).contains("test/counter/a"), text(mismatch));
    assertEquals(200, post("/statefun", null, counter("a")).statusCode());
    assertEquals(200, post("/counter", null, counter("a")).statusCode());
  }

  @Test
  void requestsOverTheLimitAreRefused() throws Exception {
    byte[] big = bigRequest();

    HttpResponse<byte[]> declared = post("/", null, big);
    HttpResponse<byte[]> chunked =
        send(
            HttpRequest.newBuilder(url("/"))
                .POST(BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))));

    assertEquals(413, declared.statusCode());
    assertTrue(text(declared).contains("4096"), text(declared));
    assertEquals(413, chunked.statusCode());
    assertEquals(200, post("/", null, counter("after")).statusCode());
  }

  @Test
  void concurrentRequestsAreAllAnswered() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> statuses = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        String id = "c" + i;
        statuses.add(
            pool.submit(
                () ->
                    post(
                            "/",
                            null,
                            request("test", "counter", id)
                                .state("seen")
                                .message(string("x"))
                                .bytes())
                        .statusCode()));
      }
      for (Future<Integer> status : statuses) {
        assertEquals(200, status.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aTakenPortIsNamedInTheError() {
    var e =
        assertThrows(
            BindException.class,
            () ->
                FunctionHttpServer.builder(
                        new RequestReplyHandler(
                            StatefulFunctions.builder()
                                .withFunction(OTHER, (context, message) -> {})
                                .build()))
                    .port(server.port())
                    .start());

    assertTrue(e.getMessage().contains(":" + server.port()), e.getMessage());
    assertTrue(e.getMessage().contains("choose another port"), e.getMessage());
  }

  private static byte[] counter(String argument) {
    return request("test", "counter", "a").state("seen").message(string(argument)).bytes();
  }

  private static byte[] bigRequest() {
    PeerWire.Request request = request("test", "counter", "a").state("seen");
    for (int i = 0; i < 200; i++) {
      request.message(string("padding padding padding " + i));
    }
    byte[] bytes = request.bytes();
    assertTrue(bytes.length > 4096);
    return bytes;
  }

  private static HttpResponse<byte[]> post(String path, String contentType, byte[] body)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(url(path)).POST(publisher(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    return send(request);
  }

  private static BodyPublisher publisher(byte[] body) {
    return body.length == 0 ? BodyPublishers.noBody() : BodyPublishers.ofByteArray(body);
  }

  private static HttpResponse<byte[]> send(HttpRequest.Builder request) throws Exception {
    return CLIENT.send(request.build(), BodyHandlers.ofByteArray());
  }

  private static URI url(String path) {
    return server.url().resolve(path);
  }

  private static String text(HttpResponse<byte[]> response) {
    return new String(response.body(), java.nio.charset.StandardCharsets.UTF_8);
  }
}
