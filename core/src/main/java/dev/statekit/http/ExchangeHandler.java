package dev.statekit.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;

/**
 * Moves one JDK exchange through the router: reads the body within the limit, writes the answer.
 */
final class ExchangeHandler implements HttpHandler {
  private static final System.Logger LOG = System.getLogger(ExchangeHandler.class.getName());

  private final HttpRouter router;

  ExchangeHandler(HttpRouter router) {
    this.router = router;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      HttpAnswer answer;
      try {
        answer = answer(exchange);
      } catch (IOException e) {
        // The client went away or sent a broken body: nobody is left to answer.
        LOG.log(Level.DEBUG, "Request body could not be read", e);
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", answer.contentType());
      answer.allow().ifPresent(allow -> exchange.getResponseHeaders().set("Allow", allow));
      exchange.sendResponseHeaders(answer.status(), answer.body().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer.body());
      }
    }
  }

  private HttpAnswer answer(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
    HttpAnswer refused = router.precheck(method, contentType, declaredLength(exchange));
    if (refused != null) {
      return refused;
    }
    byte[] body = readLimited(exchange.getRequestBody(), router.maxRequestBytes());
    if (body == null) {
      return router.tooLarge();
    }
    return router.handle(method, exchange.getRequestURI().getPath(), contentType, body);
  }

  private static long declaredLength(HttpExchange exchange) {
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    if (length == null) {
      return -1;
    }
    try {
      return Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The body, or {@code null} once it passes the limit (chunked bodies declare no length). */
  private static byte[] readLimited(InputStream in, long limit) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream(8192);
    byte[] buffer = new byte[8192];
    long total = 0;
    int read;
    while ((read = in.read(buffer)) != -1) {
      total += read;
      if (total > limit) {
        return null;
      }
      body.write(buffer, 0, read);
    }
    return body.toByteArray();
  }
}
