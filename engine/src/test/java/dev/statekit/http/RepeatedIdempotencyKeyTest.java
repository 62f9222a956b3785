package dev.statekit.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A call's Idempotency-Key is one value, the key its exactly-once rests on. Sent in two field lines
 * that differ, the endpoint took the first, while a proxy or a cache in front may take the last (or
 * both, joined): the same call could be applied under two keys. Such a call must be refused, as a
 * header key that differs from the body's id is.
 */
class RepeatedIdempotencyKeyTest {
  private final List<String> applied = new CopyOnWriteArrayList<>();

  @Test
  void twoDifferentIdempotencyKeysAreRefused() throws Exception {
    String head = answerTo("Idempotency-Key: one\r\nIdempotency-Key: two\r\n");

    assertTrue(
        head.startsWith("HTTP/1.1 400"),
        "two keys should be refused; got " + head + ", applied " + applied);
    assertEquals(List.of(), applied);
  }

  /**
   * Two keys joined by a comma, as a Lambda Function URL hands two Idempotency-Key headers over
   * (and as a proxy may join them): taken as the key "one,two" before, which is neither.
   */
  @Test
  void aKeyHoldingACommaIsRefused() throws Exception {
    String head = answerTo("Idempotency-Key: one,two\r\n");

    assertTrue(
        head.startsWith("HTTP/1.1 400"),
        "a key with a comma should be refused; got " + head + ", applied " + applied);
    assertEquals(List.of(), applied);
  }

  /** The head of the answer to a call with these Idempotency-Key lines. */
  private String answerTo(String keyLines) throws Exception {
    try (FunctionHttpServer server =
            FunctionHttpServer.builder(
                    new dev.statekit.protocol.RequestReplyHandler(
                        dev.statekit.function.StatefulFunctions.builder()
                            .withFunction(
                                dev.statekit.types.TypeName.of("test", "fn"), (context, m) -> {})
                            .build()))
                .calls(
                    json -> {
                      applied.add(new String(json, StandardCharsets.UTF_8));
                      return "{\"status\":\"applied\"}".getBytes(StandardCharsets.UTF_8);
                    })
                .port(0)
                .start();
        Socket socket = new Socket("127.0.0.1", server.port())) {
      String body = "{\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}";
      socket
          .getOutputStream()
          .write(
              ("POST /call/test/echo/a HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      + keyLines
                      + "Content-Length: "
                      + body.length()
                      + "\r\n\r\n"
                      + body)
                  .getBytes(StandardCharsets.US_ASCII));
      return RawHttp.readHead(socket, Duration.ofSeconds(2));
    }
  }
}
