package dev.statekit.runtime.internal;

import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.runtime.CallResult;
import dev.statekit.runtime.internal.data.CallReply;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.Locale;
import java.util.Map;

/** A settled call delivery as a {@link CallResult}, and a {@link CallResult} as JSON. */
final class CallAnswers {
  private static final String SAME_KEY =
      "; call again with the same idempotency key (a call without one may be applied twice)";

  private CallAnswers() {}

  static CallResult result(Delivery d) {
    if (d.invalid != null) {
      return new CallResult(CallResult.Status.REJECTED, false, null, null, d.invalid.getMessage());
    }
    switch (d.outcome) {
      case APPLIED:
      case DUPLICATE:
        boolean repeat = d.outcome == DeliveryOutcome.DUPLICATE;
        CallReply reply = d.reply;
        if (reply != null && reply.getReplied()) {
          return new CallResult(
              CallResult.Status.APPLIED,
              repeat,
              reply.getTypeName(),
              reply.getValue().toByteArray(),
              null);
        }
        return new CallResult(
            CallResult.Status.APPLIED,
            repeat,
            null,
            null,
            reply != null
                ? "Applied; the function sent no reply (an egress record to statekit/reply)"
                : "Applied before under this idempotency key by a message that was not a call,"
                    + " so no reply was kept");
      case DEAD_LETTERED:
        return new CallResult(CallResult.Status.REJECTED, false, null, null, d.error);
      default:
        if (d.functionFailed) {
          return new CallResult(
              CallResult.Status.FAILED,
              false,
              null,
              null,
              d.error
                  + "; nothing was applied. Fix the cause, then call again (the same key is safe)");
        }
        return new CallResult(
            d.busy ? CallResult.Status.BUSY : CallResult.Status.UNAVAILABLE,
            false,
            null,
            null,
            d.error + SAME_KEY);
    }
  }

  /**
   * {@code {"status": "applied", "repeat": false, "reply": {"typename": ..., "value": ...}}}: the
   * value as an envelope's (a built-in type's JSON value, JSON as itself) or, for bytes that are
   * not JSON (or nested deeper than {@link #MAX_VALUE_DEPTH} levels), {@code "base64"} instead of
   * {@code "value"}; {@code "reply": null} and a {@code "note"} without a reply; {@code "error"}
   * and {@code "retry"} when not applied.
   */
  static ObjectNode json(CallResult result) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    ObjectNode node = nodes.objectNode();
    node.put("status", result.status().name().toLowerCase(Locale.ROOT));
    if (result.status() == CallResult.Status.APPLIED) {
      node.put("repeat", result.repeat());
      if (result.replied()) {
        ObjectNode reply = node.putObject("reply");
        reply.put("typename", result.replyType());
        JsonNode value = valueJson(result.replyType(), result.replyValue());
        if (value != null) {
          reply.set("value", value);
        } else {
          reply.put("base64", Base64.getEncoder().encodeToString(result.replyValue()));
        }
      } else {
        node.putNull("reply");
        result.errorMessage().ifPresent(note -> node.put("note", note));
      }
    } else {
      result.errorMessage().ifPresent(error -> node.put("error", error));
      node.put("retry", result.retryable());
    }
    return node;
  }

  private static JsonNode valueJson(String typeName, byte[] value) {
    if (typeName.startsWith("io.statefun.types/")) {
      // A built-in type's value as JSON, or null (base64) for bytes that are no value of it.
      JsonNode builtIn = EnvelopeCodec.valueJson(typeName, value);
      if (builtIn == null || !builtIn.isTextual() || typeName.equals("io.statefun.types/string")) {
        return builtIn;
      }
    }
    try {
      JsonNode parsed = EnvelopeCodec.tree(new String(value, StandardCharsets.UTF_8));
      // A JSON string would read like base64: such bytes travel as base64, unambiguously. So does
      // JSON too deep to be written inside the answer.
      return parsed.isTextual() || depth(parsed) > MAX_VALUE_DEPTH ? null : parsed;
    } catch (dev.statekit.bus.InvalidEnvelopeException notJson) {
      return null;
    }
  }

  /**
   * How deep a reply's JSON may nest to be written as JSON: Jackson writes at most {@link
   * StreamWriteConstraints#DEFAULT_MAX_DEPTH} levels, and a reply sits four levels into a batch's
   * answer ({@code {"results": [{"reply": {"value": ...}}]}}), where its own outermost level is the
   * fifth. A deeper reply read (up to the parser's 1,000 levels) would make the answer fail to be
   * written after the call was applied: it goes as base64 instead, like bytes that are not JSON.
   */
  static final int MAX_VALUE_DEPTH = StreamWriteConstraints.DEFAULT_MAX_DEPTH - 4;

  /**
   * How many levels of arrays and objects {@code node} nests (0 for a scalar), without recursion.
   */
  static int depth(JsonNode node) {
    int deepest = 0;
    Deque<Map.Entry<JsonNode, Integer>> open = new ArrayDeque<>();
    open.push(Map.entry(node, 1));
    while (!open.isEmpty()) {
      Map.Entry<JsonNode, Integer> next = open.pop();
      if (next.getKey().isContainerNode()) {
        deepest = Math.max(deepest, next.getValue());
        for (JsonNode child : next.getKey()) {
          open.push(Map.entry(child, next.getValue() + 1));
        }
      }
    }
    return deepest;
  }
}
