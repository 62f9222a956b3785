package dev.statekit.local;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * The local runner's own HTTP questions, under {@code /statekit/}: {@code GET
 * /statekit/state/{namespace}/{type}/{id}} answers an address's values as JSON, so {@code state}
 * works against a serve whatever its backend (in memory included).
 */
final class ControlApi {
  private final Function<String, String> stateJson;

  /**
   * @param stateJson an address ({@code ns/type/id}) to its values as JSON
   */
  ControlApi(Function<String, String> stateJson) {
    this.stateJson = stateJson;
  }

  void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      if (path.startsWith("/statekit/state/") && "GET".equals(exchange.getRequestMethod())) {
        String address = path.substring("/statekit/state/".length());
        try {
          LocalLambdaServer.send(
              exchange,
              200,
              "application/json",
              stateJson.apply(address).getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException
            | IllegalStateException
            | picocli.CommandLine.TypeConversionException e) {
          LocalLambdaServer.send(
              exchange,
              400,
              "text/plain",
              String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
          // Answered, not dropped: a connection closed without an answer tells the caller nothing.
          LocalLambdaServer.send(
              exchange,
              500,
              "text/plain",
              ("The state could not be read: " + e).getBytes(StandardCharsets.UTF_8));
        }
        return;
      }
      LocalLambdaServer.send(
          exchange,
          404,
          "text/plain",
          ("Unknown: " + path + "; try /statekit/state/{ns}/{type}/{id}")
              .getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Nothing to answer with yet. */
  static ControlApi none() {
    return new ControlApi(
        address -> {
          throw new IllegalStateException("This serve keeps no function state to show");
        });
  }
}
