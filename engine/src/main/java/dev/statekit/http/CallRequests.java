package dev.statekit.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.event.EnvelopeConsumer;
import dev.statekit.telemetry.Log;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.Function;

/**
 * Request-reply calls over HTTP: {@code POST /call/<namespace>/<type>/<id>} with a JSON body {@code
 * {"typename": "...", "value": ..., "timeoutMillis": n}} and the idempotency key in the {@code
 * Idempotency-Key} header (or the body's {@code "id"}), handed to the runtime as the envelope
 * {@code {"target": "<namespace>/<type>/<id>", ..., "call": true}}. The answer is the runtime's
 * JSON, with a status a client can act on: 200 applied (with or without a reply), 400 bad input,
 * 409 busy and 503 unavailable (call again with the same key), 422 rejected, 500 the function
 * failed.
 */
final class CallRequests {
  /** The path prefix of calls, beside the StateFun endpoint's paths. */
  static final String PREFIX = "/call/";

  static final String JSON = "application/json";

  private static final Log LOG = Log.of(CallRequests.class);

  private final EnvelopeConsumer runtime;

  CallRequests(EnvelopeConsumer runtime) {
    this.runtime = runtime;
  }

  static boolean isCall(String path) {
    return path != null && path.startsWith(PREFIX);
  }

  /** The checks that need no body. */
  static HttpAnswer precheck(String method, String contentType) {
    if (!"POST".equals(method)) {
      HttpAnswer text =
          HttpAnswer.error(405, "Method " + method + " is not allowed: POST a call's JSON body");
      return HttpAnswer.withAllow(text, "POST");
    }
    if (contentType != null && !mediaType(contentType).equals(JSON)) {
      return HttpAnswer.error(
          415,
          "Content-Type '"
              + contentType
              + "' is not supported for a call: send "
              + JSON
              + " {\"typename\": \"...\", \"value\": ...}");
    }
    return null;
  }

  HttpAnswer handle(String path, byte[] body, Function<String, String> headers) {
    String target = path.substring(PREFIX.length());
    if (target.endsWith("/")) {
      target = target.substring(0, target.length() - 1);
    }
    target = PercentDecoding.decode(target);
    if (target == null) {
      return HttpAnswer.error(
          400, "The call's path is not valid percent-encoding of UTF-8 text: " + path);
    }
    ObjectNode envelope;
    try {
      String text = utf8(body);
      if (text == null) {
        return HttpAnswer.error(
            400,
            "A call's body is not UTF-8 text; send its JSON in UTF-8 (any charset parameter of"
                + " its Content-Type is not read)");
      }
      JsonNode request = EnvelopeCodec.tree(text);
      if (!request.isObject()) {
        return HttpAnswer.error(
            400, "A call's body is a JSON object {\"typename\": \"...\", \"value\": ...}");
      }
      envelope = ((ObjectNode) request).deepCopy();
      for (String field : new String[] {"target", "call"}) {
        if (envelope.has(field)) {
          return HttpAnswer.error(
              400,
              "A call's body has no '" + field + "': the path names the target, /call/ the call");
        }
      }
      String key = headers.apply("Idempotency-Key");
      if (key != null && key.indexOf(',') >= 0) {
        // Two Idempotency-Key headers arrive joined by a comma (a Function URL joins repeated
        // headers, and so may a proxy): "a,b" is neither key, and exactly-once rests on the key.
        return HttpAnswer.error(
            400,
            "The Idempotency-Key holds a comma, as two keys joined do; send one key without a"
                + " comma (a UUID, say)");
      }
      if (key != null) {
        JsonNode id = envelope.get("id");
        if (id != null && !(id.isTextual() && id.asText().equals(key))) {
          return HttpAnswer.error(
              400, "The Idempotency-Key header and the body's \"id\" differ; give the key once");
        }
        envelope.put("id", key);
      }
      envelope.put("target", target);
      envelope.put("call", true);
    } catch (InvalidEnvelopeException e) {
      return HttpAnswer.error(400, e.getMessage());
    }
    byte[] answer;
    try {
      answer =
          runtime.invoke(
              dev.statekit.json.PlainJson.text(envelope).getBytes(StandardCharsets.UTF_8));
    } catch (InvalidEnvelopeException e) {
      return HttpAnswer.error(400, e.getMessage());
    } catch (Exception e) {
      String id = dev.statekit.telemetry.ErrorIds.next();
      LOG.error("[error " + id + "] The call failed unexpectedly", e);
      return HttpAnswer.error(
          500, "The endpoint failed to answer the call; its log has the cause (error " + id + ")");
    }
    return HttpAnswer.json(status(answer), answer);
  }

  /** The body as text, or null if it is not UTF-8: decoded leniently, a byte became U+FFFD. */
  private static String utf8(byte[] body) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
          .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(body))
          .toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      return null;
    }
  }

  private static int status(byte[] answer) {
    String status;
    try {
      status =
          EnvelopeCodec.tree(new String(answer, StandardCharsets.UTF_8)).path("status").asText();
    } catch (InvalidEnvelopeException e) {
      return 500;
    }
    return switch (status) {
      case "applied" -> 200;
      case "busy" -> 409;
      case "unavailable" -> 503;
      case "rejected" -> 422;
      default -> 500;
    };
  }

  private static String mediaType(String contentType) {
    int semicolon = contentType.indexOf(';');
    String mediaType = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
    return mediaType.trim().toLowerCase(Locale.ROOT);
  }
}
