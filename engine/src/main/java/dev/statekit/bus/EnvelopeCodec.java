package dev.statekit.bus;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.function.Address;
import dev.statekit.json.PlainJson;
import dev.statekit.telemetry.TraceIds;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.io.IOException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.Set;

/**
 * The JSON envelope of an ingress message: {@code {"target": "ns/type/id", "typename": "...",
 * "value": ..., "id": "...", "trace": "..."}} ({@code id} and {@code trace} optional; an envelope
 * without a trace id gets one where it enters). A value of a built-in type ({@code
 * io.statefun.types/string}, {@code int}, {@code long}, {@code float}, {@code double}, {@code
 * bool}) is the JSON string, number or boolean itself; any other value is either a JSON string
 * holding the bytes in base64, or JSON (object, array, number, boolean) whose UTF-8 text is the
 * bytes, as JSON types expect. Instead of {@code value}, {@code "base64"} gives the bytes of a
 * value of any type; {@link #render} writes it for bytes that are no value of their built-in type.
 *
 * <p>Envelopes are read and written with Jackson's streaming parser and generator ({@link
 * PlainJson}), not an {@code ObjectMapper}: building one costs a cold start's first envelope a few
 * hundred milliseconds of class loading and introspection (docs/operations.md, cold start).
 */
public final class EnvelopeCodec {
  private static final Set<String> FIELDS =
      Set.of("target", "typename", "value", "base64", "id", "call", "timeoutMillis", "trace");

  /** The longest a caller may ask a call to wait for a busy address: Lambda's longest run. */
  public static final long MAX_CALL_TIMEOUT_MILLIS = 15 * 60_000;

  private static final int MAX_ID_LENGTH = 256;
  private static final String EXAMPLE =
      "{\"target\": \"example/greeter/ada\", \"typename\": \"io.statefun.types/string\","
          + " \"value\": \"hi\", \"id\": \"optional-idempotency-key\"}";

  private EnvelopeCodec() {}

  /**
   * One parsed envelope.
   *
   * @param target the target address
   * @param typeName the value's type name
   * @param value the value's bytes
   * @param id the idempotency key, or {@code null}
   * @param traceId the trace id the sender gave, or {@code null}
   */
  public record Envelope(Address target, String typeName, byte[] value, String id, String traceId) {
    /** An envelope without a trace id. */
    public Envelope(Address target, String typeName, byte[] value, String id) {
      this(target, typeName, value, id, null);
    }
  }

  /** Parses JSON text into a tree; {@link InvalidEnvelopeException} if it is not JSON. */
  public static JsonNode tree(String text) {
    try {
      // One document only: the first of two envelopes run together would otherwise be taken and
      // the second lost without a word.
      JsonNode node = PlainJson.readOne(text);
      if (node.isMissingNode()) {
        throw new InvalidEnvelopeException(
            "The payload is empty; send an envelope like " + EXAMPLE);
      }
      return node;
    } catch (IOException e) {
      throw new InvalidEnvelopeException(
          "The payload is not JSON ("
              + (e instanceof JacksonException jackson
                  ? jackson.getOriginalMessage()
                  : e.getMessage())
              + "); send an envelope like "
              + EXAMPLE,
          e);
    }
  }

  /** Reads one envelope. */
  public static Envelope parse(JsonNode node, AddressResolver targets) {
    if (!node.isObject()) {
      throw new InvalidEnvelopeException(
          "An envelope is a JSON object, got " + node.getNodeType() + "; send one like " + EXAMPLE);
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELDS.contains(name)) {
        throw new InvalidEnvelopeException(
            "Unknown envelope field '"
                + name
                + "'; an envelope has only "
                + FIELDS
                + ", e.g. "
                + EXAMPLE);
      }
    }
    Address target = targets.parse(text(node, "target"));
    String typeName = text(node, "typename");
    try {
      TypeName.parse(typeName);
    } catch (IllegalArgumentException e) {
      throw new InvalidEnvelopeException("Envelope field 'typename': " + e.getMessage(), e);
    }
    JsonNode value = node.get("value");
    JsonNode base64 = node.get("base64");
    boolean hasValue = value != null && !value.isNull();
    boolean hasBase64 = base64 != null && !base64.isNull();
    if (hasValue == hasBase64) {
      throw new InvalidEnvelopeException(
          hasValue
              ? "The envelope has both 'value' and 'base64'; give the message's value once"
              : "The envelope has no 'value'; give the message's value, e.g. " + EXAMPLE);
    }
    byte[] bytes = hasValue ? valueBytes(typeName, value) : base64Bytes(base64);
    String id = null;
    JsonNode idNode = node.get("id");
    if (idNode != null && !idNode.isNull()) {
      if (!idNode.isTextual()
          || idNode.asText().isEmpty()
          || idNode.asText().length() > MAX_ID_LENGTH) {
        throw new InvalidEnvelopeException(
            "Envelope field 'id' must be a string of 1 to " + MAX_ID_LENGTH + " characters");
      }
      id = idNode.asText();
    }
    String trace = null;
    JsonNode traceNode = node.get("trace");
    if (traceNode != null && !traceNode.isNull()) {
      if (!traceNode.isTextual() || !TraceIds.isValid(traceNode.asText())) {
        throw new InvalidEnvelopeException(
            "Envelope field 'trace': "
                + "a trace id is 1 to "
                + TraceIds.MAX_LENGTH
                + " printable ASCII characters without spaces, quotes or backslashes, got "
                + traceNode);
      }
      trace = traceNode.asText();
    }
    return new Envelope(target, typeName, bytes, id, trace);
  }

  /**
   * A call's fields of an envelope: {@code "call": true} makes it a request-reply call (answered
   * with the function's reply), {@code "timeoutMillis"} how long the caller waits for a busy
   * address.
   *
   * @param timeoutMillis the caller's budget, 0 for none given
   */
  public record Call(long timeoutMillis) {}

  /**
   * The call fields of an envelope {@link #parse} accepted, or {@code null} if it is no call.
   *
   * @throws InvalidEnvelopeException if {@code call} is not a boolean, or {@code timeoutMillis} is
   *     not a whole number of 1 to {@link #MAX_CALL_TIMEOUT_MILLIS} ms on a call
   */
  public static Call call(JsonNode node) {
    JsonNode call = node.get("call");
    JsonNode timeout = node.get("timeoutMillis");
    if (call != null && !call.isBoolean()) {
      throw new InvalidEnvelopeException(
          "Envelope field 'call' must be true (a request-reply call) or false, got " + call);
    }
    boolean isCall = call != null && call.booleanValue();
    if (timeout == null || timeout.isNull()) {
      return isCall ? new Call(0) : null;
    }
    if (!isCall) {
      throw new InvalidEnvelopeException(
          "Envelope field 'timeoutMillis' is for calls: add \"call\": true or drop it");
    }
    if (!timeout.isIntegralNumber()
        || !timeout.canConvertToLong()
        || timeout.longValue() < 1
        || timeout.longValue() > MAX_CALL_TIMEOUT_MILLIS) {
      throw new InvalidEnvelopeException(
          "Envelope field 'timeoutMillis' must be a whole number of 1 to "
              + MAX_CALL_TIMEOUT_MILLIS
              + " milliseconds, got "
              + timeout);
    }
    return new Call(timeout.longValue());
  }

  /** The envelope of a message, as {@link #parse} reads it. */
  public static ObjectNode render(Address target, String typeName, byte[] value, String id) {
    return render(target, typeName, value, id, null);
  }

  /** The envelope of a message with its trace id (none if null), as {@link #parse} reads it. */
  public static ObjectNode render(
      Address target, String typeName, byte[] value, String id, String traceId) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("target", target.toString());
    node.put("typename", typeName);
    putValue(node, typeName, value);
    if (id != null) {
      node.put("id", id);
    }
    if (traceId != null && !traceId.isEmpty()) {
      node.put("trace", traceId);
    }
    return node;
  }

  /**
   * {@link #render} as text any queue takes: characters SQS refuses in a body (U+FFFE, U+FFFF, an
   * unpaired surrogate) written as JSON escapes ({@link SqsText#escape}), so they read back exact.
   */
  public static String renderText(Address target, String typeName, byte[] value, String id) {
    return SqsText.escape(PlainJson.text(render(target, typeName, value, id)));
  }

  /** {@link #render(Address, String, byte[], String, String)} as text, as {@link #renderText}. */
  public static String renderText(
      Address target, String typeName, byte[] value, String id, String traceId) {
    return SqsText.escape(PlainJson.text(render(target, typeName, value, id, traceId)));
  }

  /** The bytes of a {@code base64} field: a message's value whatever its type, as it was. */
  private static byte[] base64Bytes(JsonNode base64) {
    if (!base64.isTextual()) {
      throw new InvalidEnvelopeException(
          "Envelope field 'base64' must be the value's bytes in base64, got " + base64);
    }
    try {
      return Base64.getDecoder().decode(base64.asText());
    } catch (IllegalArgumentException e) {
      throw new InvalidEnvelopeException(
          "Envelope field 'base64' is not base64 (" + e.getMessage() + ")", e);
    }
  }

  static byte[] valueBytes(String typeName, JsonNode value) {
    try {
      switch (typeName) {
        case "io.statefun.types/string":
          return Types.stringType().serialize(require(value.isTextual(), value, typeName).asText());
        case "io.statefun.types/int":
          require(value.isIntegralNumber() && value.canConvertToInt(), value, typeName);
          return Types.integerType().serialize(value.intValue());
        case "io.statefun.types/long":
          require(value.isIntegralNumber() && value.canConvertToLong(), value, typeName);
          return Types.longType().serialize(value.longValue());
        case "io.statefun.types/float":
          float f = require(value.isNumber(), value, typeName).floatValue();
          return Types.floatType().serialize(finite(Float.isInfinite(f), value, typeName, f));
        case "io.statefun.types/double":
          double d = require(value.isNumber(), value, typeName).doubleValue();
          return Types.doubleType().serialize(finite(Double.isInfinite(d), value, typeName, d));
        case "io.statefun.types/bool":
          return Types.booleanType()
              .serialize(require(value.isBoolean(), value, typeName).booleanValue());
        default:
          if (value.isTextual()) {
            return Base64.getDecoder().decode(value.asText());
          }
          return PlainJson.write(value);
      }
    } catch (IllegalArgumentException e) {
      throw new InvalidEnvelopeException(
          "The value for type "
              + typeName
              + " is a string but not base64 ("
              + e.getMessage()
              + "): give the bytes in base64, or JSON for JSON types",
          e);
    } catch (IllegalStateException e) {
      throw new InvalidEnvelopeException("The value could not be written as JSON: " + e, e);
    }
  }

  /**
   * A value as an envelope's {@code value} reads it: a built-in type's value as the JSON string,
   * number or boolean itself, other types' bytes as base64 text; null for bytes that are no value
   * of their built-in type (they go as {@code base64}, {@link #putValue}): as base64 text under
   * {@code value} they read back as the text itself, or not at all.
   */
  public static JsonNode valueJson(String typeName, byte[] value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    try {
      JsonNode json =
          switch (typeName) {
            case "io.statefun.types/string" ->
                nodes.textNode(Types.stringType().deserialize(value));
            case "io.statefun.types/int" ->
                nodes.numberNode(Types.integerType().deserialize(value));
            case "io.statefun.types/long" -> nodes.numberNode(Types.longType().deserialize(value));
            case "io.statefun.types/float" ->
                nodes.numberNode(Types.floatType().deserialize(value));
            case "io.statefun.types/double" ->
                nodes.numberNode(Types.doubleType().deserialize(value));
            case "io.statefun.types/bool" ->
                nodes.booleanNode(Types.booleanType().deserialize(value));
            default -> null;
          };
      if (json == null) {
        return nodes.textNode(Base64.getEncoder().encodeToString(value));
      }
      // Only what reads back, from the text, as these very bytes: others are no value of the type
      // (a raw UTF-8 string, a short long), or no JSON number (NaN, infinities), or a float whose
      // shortest text rounds to its neighbour when read through a double.
      JsonNode reread = PlainJson.readOne(PlainJson.text(json));
      return Arrays.equals(valueBytes(typeName, reread), value) ? json : null;
    } catch (IllegalArgumentException | InvalidEnvelopeException | IOException notThatType) {
      return null;
    }
  }

  /**
   * Sets a message's value on {@code node} so that {@link #parse} reads the same bytes: {@code
   * value} as {@link #valueJson} writes it, or {@code base64} for bytes that are no value of their
   * built-in type.
   */
  public static void putValue(ObjectNode node, String typeName, byte[] value) {
    JsonNode json = valueJson(typeName, value);
    if (json != null) {
      node.set("value", json);
    } else {
      node.put("base64", Base64.getEncoder().encodeToString(value));
    }
  }

  public static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw new InvalidEnvelopeException(
          "Envelope field '" + field + "' must be a non-empty string, e.g. " + EXAMPLE);
    }
    return value.asText();
  }

  /**
   * {@code number}, unless it is infinite: JSON has no infinities, so an infinite float or double
   * is a finite number past the type's range, which is refused as an int's or a long's is.
   */
  private static <N extends Number> N finite(
      boolean infinite, JsonNode value, String typeName, N number) {
    if (infinite) {
      throw new InvalidEnvelopeException(
          "The value "
              + value
              + " is past the range of "
              + typeName
              + "; send a number the type holds, or the bytes as \"base64\"");
    }
    return number;
  }

  private static JsonNode require(boolean ok, JsonNode value, String typeName) {
    if (!ok) {
      throw new InvalidEnvelopeException(
          "The value "
              + value
              + " is not a "
              + typeName
              + "; a built-in type's value is the JSON string, number or boolean itself");
    }
    return value;
  }
}
