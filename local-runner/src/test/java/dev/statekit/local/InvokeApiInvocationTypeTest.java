package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The serve's invoke API works with {@code aws lambda invoke --endpoint-url}, and its invocation
 * types as Lambda's: {@code DryRun} (header {@code X-Amz-Invocation-Type: DryRun}) checks the
 * request and runs nothing, answered 204; {@code Event} is answered 202 at once and runs after.
 * Before, the serve ignored the header: a dry run of an envelope applied it to the state, and an
 * asynchronous invoke was answered 200 after running.
 */
class InvokeApiInvocationTypeTest {
  private CountingServe serve;
  private AtomicInteger invoked;
  private LocalLambdaServer server;

  @BeforeEach
  void start() throws IOException {
    serve = new CountingServe();
    invoked = serve.invoked;
    server = serve.server;
  }

  @AfterEach
  void stop() {
    serve.close();
  }

  @Test
  void aDryRunInvokesNothing() throws Exception {
    HttpResponse<String> answer =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(server.url() + "2015-03-31/functions/AppFunction/invocations"))
                    .header("X-Amz-Invocation-Type", "DryRun")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"target\":\"example/greeter/Ada\",\"typename\":"
                                + "\"io.statefun.types/string\",\"value\":\"hi\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(0, invoked.get(), "a dry run ran the function; answered " + answer.statusCode());
    assertEquals(204, answer.statusCode(), "Lambda answers a dry run 204");
  }

  /** An asynchronous invoke is answered 202 at once, and the function runs after. */
  @Test
  void anEventInvokeIsAnswered202AndRunsInTheBackground() throws Exception {
    HttpResponse<String> answer =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(server.url() + "2015-03-31/functions/AppFunction/invocations"))
                    .header("X-Amz-Invocation-Type", "Event")
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(202, answer.statusCode(), "Lambda answers an asynchronous invoke 202");
    long deadline = System.currentTimeMillis() + 10_000;
    while (invoked.get() == 0 && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(1, invoked.get(), "the function ran once");
  }

  /**
   * Lambda takes at most 1 MB for an asynchronous invocation (6 MB only for a synchronous one) and
   * refuses a larger event with 413 (RequestEntityTooLargeException): a 2 MB Event invoke that runs
   * locally fails on AWS.
   */
  @Test
  void anEventInvokeOverLambdasOneMegabyteIsRefused() throws Exception {
    String big = "{\"pad\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}";
    HttpResponse<String> answer =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(server.url() + "2015-03-31/functions/AppFunction/invocations"))
                    .header("X-Amz-Invocation-Type", "Event")
                    .POST(HttpRequest.BodyPublishers.ofString(big))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    Thread.sleep(500);
    assertEquals(
        413,
        answer.statusCode(),
        "Lambda refuses an asynchronous payload over 1 MB; the function ran "
            + invoked.get()
            + " time(s)");
    assertEquals(0, invoked.get(), "and runs nothing");
  }
}
