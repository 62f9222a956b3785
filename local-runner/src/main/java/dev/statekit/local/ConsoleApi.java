package dev.statekit.local;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The console: its page under {@code /console/} (plain HTML, CSS and JavaScript from the jar) and
 * the JSON documents the page polls, under {@code /statekit/api/}:
 *
 * <ul>
 *   <li>{@code GET overview}: the application, its functions with their values, egresses, each
 *       pipeline's stages and operators (type, label, configuration), the messages seen between
 *       function types and to egresses ({@code edges}, with counts);
 *   <li>{@code GET queues}: depth and in flight of each queue, the dead letters with their errors;
 *   <li>{@code GET pipelines}: each pipeline's splits (position, watermark, idleness) and totals
 *       (records, late records, windows fired);
 *   <li>{@code GET addresses}: the addresses invocations ran on;
 *   <li>{@code GET address/{namespace}/{type}/{id}}: its values decoded, with expiry, and its
 *       pending delayed messages;
 *   <li>{@code GET invocations?after=N&limit=M}: the invocations numbered above N (message in,
 *       state before and after, messages, delayed messages and egress records sent, outcome, error,
 *       trace id);
 *   <li>{@code GET metrics}: per-second counts of the last two minutes, and totals;
 *   <li>{@code POST dead-letters/{id}/resend}: puts a dead letter back on the ingress queue, as it
 *       was (empty body) or as the request's body (a fixed ingress envelope).
 * </ul>
 *
 * Path parts are percent-decoded once ({@code +} stays a plus). Errors answer {@code {"error":
 * "..."}}: 400 for bad input, 403 for a write on a read-only console, 404 for an unknown path, 413
 * for a body over 1 MiB, 500 for a failure of the backend (with its message).
 */
final class ConsoleApi {
  static final String API = "/statekit/api/";
  static final String PAGE = "/console/";
  private static final Pattern ASSET = Pattern.compile("[a-z0-9-]+\\.(html|css|js|svg)");
  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "svg", "image/svg+xml");

  private final ConsoleData data;

  ConsoleApi(ConsoleData data) {
    this.data = data;
  }

  void page(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      if (path.equals("/console")) {
        exchange.getResponseHeaders().set("Location", PAGE);
        LocalLambdaServer.send(exchange, 302, null, new byte[0]);
        return;
      }
      String name = path.length() <= PAGE.length() ? "index.html" : path.substring(PAGE.length());
      if (!ASSET.matcher(name).matches()) {
        error(exchange, 404, "No console file " + name);
        return;
      }
      try (InputStream in = ConsoleApi.class.getResourceAsStream("console/" + name)) {
        if (in == null) {
          error(exchange, 404, "No console file " + name);
          return;
        }
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        LocalLambdaServer.send(
            exchange, 200, TYPES.get(name.substring(name.lastIndexOf('.') + 1)), in.readAllBytes());
      }
    }
  }

  void api(HttpExchange exchange) throws IOException {
    try (exchange) {
      // The raw path, decoded once below: an address id or a dead letter's id may hold '+', '%'
      // or '/', which a second decoding (or '+' taken for a space) would change.
      String path = exchange.getRequestURI().getRawPath().substring(API.length());
      String method = exchange.getRequestMethod();
      try {
        ObjectNode answer = answer(method, path, exchange);
        if (answer == null) {
          error(
              exchange,
              404,
              "Unknown: " + method + " " + API + path + "; see docs/local-runner.md");
          return;
        }
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        LocalLambdaServer.send(
            exchange, 200, "application/json", ConsoleJson.JSON.writeValueAsBytes(answer));
      } catch (picocli.CommandLine.TypeConversionException e) {
        // An address the page or a caller wrote wrong: bad input, said as such.
        error(exchange, 400, e.getMessage());
      } catch (BodyTooLarge e) {
        // Answered while its sender still sends, the refusal could be cut off by the close.
        LocalLambdaServer.drain(exchange.getRequestBody(), LocalLambdaServer.MOST_DRAINED);
        error(exchange, 413, e.getMessage());
      } catch (IllegalArgumentException e) {
        error(exchange, 400, e.getMessage());
      } catch (IllegalStateException e) {
        error(exchange, 403, e.getMessage());
      } catch (RuntimeException e) {
        // Else the server drops the connection and the page shows no reason at all.
        error(exchange, 500, e.getClass().getSimpleName() + ": " + e.getMessage());
      }
    }
  }

  private ObjectNode answer(String method, String path, HttpExchange exchange) throws IOException {
    if ("POST".equals(method)) {
      if (path.startsWith("dead-letters/") && path.endsWith("/resend")) {
        String id =
            decode(path.substring("dead-letters/".length(), path.length() - "/resend".length()));
        String body = body(exchange);
        return data.resend(id, body);
      }
      return null;
    }
    if (!"GET".equals(method)) {
      return null;
    }
    if (path.startsWith("address/")) {
      return data.address(decode(path.substring("address/".length())));
    }
    return switch (path) {
      case "overview" -> data.overview();
      case "queues" -> data.queues();
      case "pipelines" -> data.pipelines();
      case "addresses" -> data.addresses();
      case "metrics" -> data.metrics();
      case "invocations" -> {
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        yield data.invocations(
            number(query, "after", 0), (int) Math.min(500, number(query, "limit", 100)));
      }
      default -> null;
    };
  }

  /** A body the console reads whole: a fixed envelope, which SQS caps at 256 KiB anyway. */
  static final int MAX_BODY_BYTES = 1 << 20;

  private static final class BodyTooLarge extends RuntimeException {
    BodyTooLarge(String message) {
      super(message);
    }
  }

  private static String body(HttpExchange exchange) throws IOException {
    byte[] bytes = exchange.getRequestBody().readNBytes(MAX_BODY_BYTES + 1);
    if (bytes.length > MAX_BODY_BYTES) {
      throw new BodyTooLarge(
          "The body must be at most " + MAX_BODY_BYTES + " bytes (an ingress envelope)");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** One percent-decoding of a raw path part; '+' stays a plus (it is a query's space only). */
  private static String decode(String raw) {
    return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> query = new java.util.HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          query.put(
              pair.substring(0, eq),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return query;
  }

  private static long number(Map<String, String> query, String name, long otherwise) {
    String value = query.get(name);
    if (value == null) {
      return otherwise;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " is a number, got '" + value + "'");
    }
  }

  private static void error(HttpExchange exchange, int status, String message) throws IOException {
    ObjectNode node = ConsoleJson.JSON.createObjectNode();
    node.put("error", message);
    LocalLambdaServer.send(
        exchange, status, "application/json", ConsoleJson.JSON.writeValueAsBytes(node));
  }
}
