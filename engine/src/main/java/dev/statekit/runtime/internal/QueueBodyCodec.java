package dev.statekit.runtime.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.bus.AddressResolver;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.bus.QueueMessage;
import dev.statekit.bus.SqsText;
import dev.statekit.function.Address;
import dev.statekit.invocation.TypedValue;
import dev.statekit.json.PlainJson;
import dev.statekit.runtime.internal.data.Payload;
import dev.statekit.runtime.store.TimerKey;
import dev.statekit.telemetry.TraceIds;
import dev.statekit.types.TypeName;
import java.util.Base64;
import java.util.List;

/**
 * The bodies of queue messages: an ingress envelope ({@link EnvelopeCodec}), or one of the
 * runtime's own, told apart by a {@code "statekit"} field. A bundle carries one sender's messages
 * to one target from one commit, in order: {@code {"statekit": "bundle", "from": {"type", "id"},
 * "incarnation": hex, "version": n, "part": p, "target": {...}, "messages": [{"typename", "value":
 * base64, "trace"}], "committed": ms}}, with {@code "resend": true} when it may have been delivered
 * before. A fired timer: {@code {"statekit": "timer", "timer": "shard:due:id", "owner": {...},
 * "token": "...", "target": {...}, "typename", "value", "trace"}}. The trace ids are optional
 * (bodies written before them have none): a message without one gets one made from its queue
 * message id, the same on every delivery.
 */
final class QueueBodyCodec {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private QueueBodyCodec() {}

  static String bundle(
      Address from,
      long incarnation,
      long version,
      int part,
      Address target,
      List<Payload> payloads,
      long committedAt,
      boolean resend) {
    ObjectNode body = NODES.objectNode();
    body.put("statekit", "bundle");
    if (resend) {
      // The receiver looks up its mark of the sender only for a bundle that may be a repeat.
      body.put("resend", true);
    }
    body.put("committed", committedAt);
    body.set("from", address(from));
    body.put("incarnation", Long.toHexString(incarnation));
    body.put("version", version);
    body.put("part", part);
    body.set("target", address(target));
    ArrayNode messages = body.putArray("messages");
    for (Payload payload : payloads) {
      ObjectNode message =
          messages
              .addObject()
              .put("typename", payload.getTypeName())
              .put("value", Base64.getEncoder().encodeToString(payload.getValue().toByteArray()));
      if (!payload.getTraceId().isEmpty()) {
        message.put("trace", payload.getTraceId());
      }
    }
    return text(body);
  }

  static String timer(
      TimerKey timer,
      Address owner,
      String token,
      Address target,
      TypedValue value,
      String traceId) {
    ObjectNode body = NODES.objectNode();
    body.put("statekit", "timer");
    body.put("timer", timer.asString());
    body.set("owner", address(owner));
    if (token != null) {
      body.put("token", token);
    }
    body.set("target", address(target));
    body.put("typename", value.typeName());
    body.put("value", Base64.getEncoder().encodeToString(value.value()));
    if (traceId != null) {
      body.put("trace", traceId);
    }
    return text(body);
  }

  /**
   * A body as JSON text the queue takes: user data (address ids, type names, tokens) may hold
   * characters SQS refuses, which JSON escapes carry exactly ({@link SqsText#escape}).
   */
  private static String text(ObjectNode body) {
    return SqsText.escape(PlainJson.text(body));
  }

  /**
   * Reads a queue message into a delivery; one that can't be read carries the error in {@link
   * Delivery#invalid}.
   */
  static Delivery read(int position, QueueMessage message, AddressResolver targets) {
    Delivery delivery =
        Delivery.queued(
            position,
            message.messageId(),
            message.groupId(),
            sequenceOrNull(message.sequenceNumber()),
            message.receiveCount(),
            message.body());
    try {
      JsonNode node = EnvelopeCodec.tree(message.body());
      JsonNode kind = node.get("statekit");
      if (kind == null) {
        EnvelopeCodec.Envelope envelope = EnvelopeCodec.parse(node, targets);
        if (EnvelopeCodec.call(node) != null) {
          throw new InvalidEnvelopeException(
              "A call (\"call\": true) is answered to its caller, and a queue message has none:"
                  + " make calls by direct invoke or over HTTP (/call/<namespace>/<type>/<id>), or"
                  + " send the envelope without \"call\"");
        }
        if (message.groupId() == null && envelope.id() == null) {
          // Only a standard queue (the wake-up queue) gives no group: it may deliver the same
          // message twice, and without a sequence number or an id a repeat is not recognised.
          throw new InvalidEnvelopeException(
              "An envelope without an \"id\" arrived without a message group, so from a standard"
                  + " queue (the wake-up queue takes only the runtime's wake-ups), which may"
                  + " deliver it twice: send envelopes to the ingress FIFO queue, or give it an"
                  + " \"id\" so that a repeat is recognised");
        }
        delivery.target = envelope.target();
        delivery.idempotencyKey = envelope.id();
        InboundInvocation inbound =
            InboundInvocation.ingress(
                delivery, new TypedValue(envelope.typeName(), envelope.value()));
        inbound.traceId = envelope.traceId();
        delivery.invocations.add(inbound);
      } else if ("bundle".equals(kind.asText())) {
        readBundle(node, delivery);
      } else if ("timer".equals(kind.asText())) {
        readTimer(node, delivery);
      } else {
        throw new InvalidEnvelopeException("Unknown runtime message kind '" + kind.asText() + "'");
      }
    } catch (InvalidEnvelopeException e) {
      delivery.invalid = e;
    } catch (RuntimeException e) {
      delivery.invalid =
          new InvalidEnvelopeException("The queue message is not a valid message: " + e, e);
    }
    for (InboundInvocation inbound : delivery.invocations) {
      if (inbound.traceId == null) {
        inbound.traceId = TraceIds.derivedFrom(message.messageId());
      }
    }
    return delivery;
  }

  private static void readBundle(JsonNode node, Delivery delivery) {
    Address from = address(node.get("from"));
    long incarnation = Long.parseUnsignedLong(EnvelopeCodec.text(node, "incarnation"), 16);
    long version = node.get("version").asLong();
    int part = node.get("part").asInt();
    boolean resent = node.path("resend").asBoolean(false);
    long committed = node.path("committed").asLong(0);
    delivery.target = address(node.get("target"));
    int index = 0;
    for (JsonNode message : node.get("messages")) {
      TypedValue value =
          new TypedValue(
              EnvelopeCodec.text(message, "typename"),
              Base64.getDecoder().decode(message.get("value").asText()));
      InboundInvocation inbound =
          InboundInvocation.bundled(
              delivery, from, incarnation, version, part, index++, resent, committed, value);
      inbound.traceId = traceOrNull(message);
      delivery.invocations.add(inbound);
    }
  }

  private static void readTimer(JsonNode node, Delivery delivery) {
    TimerKey timer = TimerKey.parse(EnvelopeCodec.text(node, "timer"));
    Address owner = address(node.get("owner"));
    JsonNode token = node.get("token");
    delivery.target = address(node.get("target"));
    TypedValue value =
        new TypedValue(
            EnvelopeCodec.text(node, "typename"),
            Base64.getDecoder().decode(node.get("value").asText()));
    InboundInvocation inbound =
        InboundInvocation.fired(
            delivery, owner, timer, token == null ? null : token.asText(), value);
    inbound.traceId = traceOrNull(node);
    delivery.invocations.add(inbound);
  }

  private static String traceOrNull(JsonNode node) {
    JsonNode trace = node.get("trace");
    return trace != null && trace.isTextual() && TraceIds.isValid(trace.asText())
        ? trace.asText()
        : null;
  }

  private static ObjectNode address(Address address) {
    return NODES.objectNode().put("type", address.type().asString()).put("id", address.id());
  }

  private static Address address(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new InvalidEnvelopeException("A runtime message lacks an address");
    }
    return Address.of(
        TypeName.parse(EnvelopeCodec.text(node, "type")), EnvelopeCodec.text(node, "id"));
  }

  /** A FIFO sequence number, or null when there is none or it is not a decimal. */
  private static String sequenceOrNull(String sequence) {
    if (sequence == null || sequence.isEmpty() || !sequence.chars().allMatch(Character::isDigit)) {
      return null;
    }
    return sequence;
  }
}
