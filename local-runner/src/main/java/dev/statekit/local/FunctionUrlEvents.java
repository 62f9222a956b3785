package dev.statekit.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A Lambda function URL, emulated: an HTTP request becomes the function URL event (payload format
 * 2.0) and the function's answer ({@code statusCode}, {@code headers}, {@code body}, {@code
 * isBase64Encoded}) becomes the HTTP response.
 */
final class FunctionUrlEvents {
  private static final ObjectMapper JSON = new ObjectMapper();

  private FunctionUrlEvents() {}

  static byte[] event(HttpExchange exchange, byte[] body) throws IOException {
    ObjectNode event = JSON.createObjectNode();
    String path = exchange.getRequestURI().getRawPath();
    String query = exchange.getRequestURI().getRawQuery();
    event.put("version", "2.0");
    event.put("routeKey", "$default");
    event.put("rawPath", path);
    event.put("rawQueryString", query == null ? "" : query);
    ObjectNode headers = event.putObject("headers");
    for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
      headers.put(
          header.getKey().toLowerCase(java.util.Locale.ROOT), String.join(",", header.getValue()));
    }
    ObjectNode context = event.putObject("requestContext");
    context.put("accountId", "anonymous");
    context.put("requestId", UUID.randomUUID().toString());
    context.put("timeEpoch", Instant.now().toEpochMilli());
    ObjectNode http = context.putObject("http");
    http.put("method", exchange.getRequestMethod());
    http.put("path", path);
    http.put("protocol", exchange.getProtocol());
    http.put("sourceIp", exchange.getRemoteAddress().getAddress().getHostAddress());
    if (body.length > 0) {
      event.put("body", Base64.getEncoder().encodeToString(body));
    }
    event.put("isBase64Encoded", true);
    return JSON.writeValueAsBytes(event);
  }

  /** Writes the function's HTTP answer; an answer of another shape is returned as a JSON body. */
  static void respond(HttpExchange exchange, byte[] answer) throws IOException {
    JsonNode response;
    try {
      response = JSON.readTree(answer);
    } catch (IOException e) {
      response = null;
    }
    if (response == null || !response.has("statusCode")) {
      LocalLambdaServer.send(exchange, 200, "application/json", answer);
      return;
    }
    response
        .path("headers")
        .fields()
        .forEachRemaining(
            h -> exchange.getResponseHeaders().set(h.getKey(), h.getValue().asText()));
    String body = response.path("body").asText("");
    byte[] bytes =
        response.path("isBase64Encoded").asBoolean(false)
            ? Base64.getDecoder().decode(body)
            : body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    LocalLambdaServer.send(exchange, response.get("statusCode").asInt(), null, bytes);
  }
}
