package dev.statekit.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.json.BoundedJson;
import dev.statekit.protocol.MalformedRequestException;
import java.io.IOException;
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
   * @throws MalformedRequestException if the payload is not JSON or not an HTTP event
   */
  public byte[] handle(byte[] eventJson) {
    JsonNode event;
    try {
      event = BoundedJson.read(eventJson);
    } catch (IOException e) {
      throw new MalformedRequestException(
          "The payload is not JSON (" + BoundedJson.describe(e) + "); expected an HTTP event", e);
    }
    return handle(event);
  }

  /**
   * Answers one event already parsed (the entry point reads a payload once to tell its shape).
   *
   * @throws MalformedRequestException if the event is not an HTTP event
   */
  public byte[] handle(JsonNode event) {
    if (event == null || !event.isObject()) {
      throw new MalformedRequestException(
          "The payload is not a JSON object; expected an HTTP event");
    }
    String method = text(event.path("requestContext").path("http").path("method"));
    String path = text(event.get("rawPath"));
    if (method == null) {
      method = text(event.get("httpMethod"));
      path = text(event.get("path"));
    }
    if (method == null) {
      throw new MalformedRequestException(
          "The JSON payload is not an HTTP event: it has neither requestContext.http.method"
              + " (Function URL, HTTP API) nor httpMethod (REST API); send an HTTP event or the"
              + " raw ToFunction bytes");
    }
    String text = text(event.get("body"));
    boolean base64 = event.path("isBase64Encoded").asBoolean(false);
    if (text != null && text.length() > encodedLimit(base64)) {
      // Refused before decoding: nothing is allocated for a body past the limit.
      return response(router.tooLarge());
    }
    byte[] body;
    try {
      body = text == null ? new byte[0] : body(text, base64);
    } catch (IllegalArgumentException e) {
      return response(
          HttpAnswer.error(400, "The event body is not valid base64: " + e.getMessage()));
    }
    return response(
        router.handle(
            method, path, header(event, "content-type"), body, name -> header(event, name)));
  }

  private static byte[] body(String text, boolean base64) {
    return base64 ? Base64.getDecoder().decode(text) : text.getBytes(StandardCharsets.UTF_8);
  }

  /** The longest body text that can hold a body within the limit. */
  private long encodedLimit(boolean base64) {
    long limit = router.maxRequestBytes();
    // A character is at most 3 UTF-8 bytes, and at least 1; base64 takes 4 per 3 bytes.
    return base64 ? (limit + 2) / 3 * 4 + 4 : limit;
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
    ObjectNode response = JsonNodeFactory.instance.objectNode();
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
    return BoundedJson.write(response);
  }
}
