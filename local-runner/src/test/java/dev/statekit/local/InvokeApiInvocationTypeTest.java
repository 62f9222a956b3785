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
 * The serve's invoke API is documented to work with {@code aws lambda invoke --endpoint-url}. The
 * CLI's {@code --invocation-type DryRun} (header {@code X-Amz-Invocation-Type: DryRun}) asks Lambda
 * to check the request and the caller's permission and run nothing: Lambda answers 204 and never
 * invokes the function. Before, the serve ignored the header and ran the payload: a dry run of an
 * envelope applied it to the state.
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
}
