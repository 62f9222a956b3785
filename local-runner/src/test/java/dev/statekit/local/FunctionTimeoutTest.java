package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.local.template.FunctionDef;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Lambda ends an invocation that runs past the function's {@code Timeout} and reports it as a
 * function error ("Task timed out after 1.00 seconds", {@code X-Amz-Function-Error}); an event
 * source mapping then retries the batch. The local runner knows each function's {@code Timeout}
 * (FunctionDef.timeoutSeconds) but runs every invocation to its end and answers it as a success, so
 * a function too slow for its timeout passes locally and fails on AWS.
 */
class FunctionTimeoutTest {
  @Test
  void anInvocationPastTheFunctionsTimeoutIsAFunctionError() throws Exception {
    RequestStreamHandler slow =
        (in, out, context) -> {
          try {
            Thread.sleep(2_500);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          out.write("{\"done\":true}".getBytes(StandardCharsets.UTF_8));
        };
    // Timeout: 1 in the template.
    LocalFunction function =
        new LocalFunction(
            new FunctionDef("AppFunction", "x.Slow", Map.of(), List.of(), null, false, 512, 1),
            slow);
    LocalLambdaServer server =
        LocalLambdaServer.start(
            "127.0.0.1",
            0,
            name -> name.equals("AppFunction") ? function : null,
            "AppFunction",
            new ControlApi(address -> "{}"),
            null);
    try {
      HttpResponse<String> answer =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(server.url() + "2015-03-31/functions/AppFunction/invocations"))
                      .POST(HttpRequest.BodyPublishers.ofString("{}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(
          "Unhandled",
          answer.headers().firstValue("X-Amz-Function-Error").orElse("(none)"),
          "a 2.5 s invocation of a function whose Timeout is 1 s is a function error on Lambda;"
              + " answered "
              + answer.statusCode()
              + " "
              + answer.body());
    } finally {
      server.close();
    }
  }
}
