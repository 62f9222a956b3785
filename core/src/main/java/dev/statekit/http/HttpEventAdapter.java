package dev.statekit.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * Answers a Lambda HTTP event (a Function URL or API Gateway HTTP API event, payload format 2.0, or
 * a REST API / format 1.0 event) carrying a {@code ToFunction} body, with the HTTP response JSON
 * Lambda expects, following the same rules as the HTTP server ({@link HttpRouter}). Binary bodies
 * travel base64-encoded both ways. Plain JSON: no Lambda library needed.
 */
public final class HttpEventAdapter {
  /** Created on first use: a handler that only sees ToFunction bytes never loads Jackson. */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private final HttpRouter router;

  /** Answers through {@code router}. */
  public HttpEventAdapter(HttpRouter router) {
    this.router = Objects.requireNonNull(router, "router");
  }

  /**
   * Answers one event.
   *
   * @param eventJson the event as Lambda delivers it
   * @return the response JSON ({@code statusCode}, {@code headers}, {@code body}, {@code
   *     isBase64Encoded})
   * @throws IllegalArgumentException if the payload is not JSON or not an HTTP event
   */
  public byte[] handle(byte[] eventJson) {
    JsonNode event;
    try {
      event = Json.MAPPER.readTree(eventJson);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "The payload is not JSON (" + e.getOriginalMessage() + "); expected an HTTP event", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return handle(event);
  }

  /**
   * Answers one event already parsed (the entry point reads a payload once to tell its shape).
   *
   * @throws IllegalArgumentException if the event is not an HTTP event
   */
  public byte[] handle(JsonNode event) {
    if (event == null || !event.isObject()) {
      throw new IllegalArgumentException(
          "The payload is not a JSON object; expected an HTTP event");
    }
    String method = text(event.path("requestContext").path("http").path("method"));
    String path = text(event.get("rawPath"));
    if (method == null) {
      method = text(event.get("httpMethod"));
      path = text(event.get("path"));
    }
    if (method == null) {
      throw new IllegalArgumentException(
          "The JSON payload is not an HTTP event: it has neither requestContext.http.method"
              + " (Function URL, HTTP API) nor httpMethod (REST API); send an HTTP event or the"
              + " raw ToFunction bytes");
    }
    byte[] body;
    try {
      body = body(event);
    } catch (IllegalArgumentException e) {
      return response(
          HttpAnswer.error(400, "The event body is not valid base64: " + e.getMessage()));
    }
    return response(router.handle(method, path, header(event, "content-type"), body));
  }

  private static byte[] body(JsonNode event) {
    String body = text(event.get("body"));
    if (body == null) {
      return new byte[0];
    }
    if (event.path("isBase64Encoded").asBoolean(false)) {
      return Base64.getDecoder().decode(body);
    }
    return body.getBytes(StandardCharsets.UTF_8);
  }

  /** HTTP header names are case-insensitive; events keep whatever case the client sent. */
  private static String header(JsonNode event, String name) {
    JsonNode headers = event.get("headers");
    if (headers == null || !headers.isObject()) {
      return null;
    }
    Iterator<Map.Entry<String, JsonNode>> fields = headers.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      if (field.getKey().equalsIgnoreCase(name)) {
        return text(field.getValue());
      }
    }
    return null;
  }

  private static String text(JsonNode node) {
    return node == null || !node.isTextual() ? null : node.asText();
  }

  private static byte[] response(HttpAnswer answer) {
    ObjectNode response = Json.MAPPER.createObjectNode();
    response.put("statusCode", answer.status());
    ObjectNode headers = response.putObject("headers");
    headers.put("Content-Type", answer.contentType());
    answer.allow().ifPresent(allow -> headers.put("Allow", allow));
    boolean binary = answer.contentType().equals(HttpAnswer.OCTET_STREAM);
    response.put(
        "body",
        binary
            ? Base64.getEncoder().encodeToString(answer.body())
            : new String(answer.body(), StandardCharsets.UTF_8));
    response.put("isBase64Encoded", binary);
    try {
      return Json.MAPPER.writeValueAsBytes(response);
    } catch (JacksonException e) {
      throw new IllegalStateException("Could not write the HTTP response JSON", e);
    }
  }
}
