package dev.statekit.runtime.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.Deadline;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.bus.QueueMessage;
import dev.statekit.function.Message;
import dev.statekit.invocation.TypedValue;
import dev.statekit.json.PlainJson;
import dev.statekit.runtime.CallResult;
import dev.statekit.runtime.DirectInvocation;
import dev.statekit.runtime.DirectResult;
import dev.statekit.runtime.QueueBatchResult;
import dev.statekit.telemetry.Log;
import dev.statekit.telemetry.Metric;
import dev.statekit.telemetry.Metrics;
import dev.statekit.telemetry.Telemetry;
import dev.statekit.telemetry.TraceIds;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The runtime's entry points over a {@link BatchProcessor}: direct invocations (typed or as JSON)
 * and queue batches, turned into deliveries and their outcomes back into answers. Not for users.
 */
public final class DeliveryTranslator {
  /**
   * Envelopes one array may hold: as many as the records of Lambda's largest batch. Each is
   * answered (a rejected one with its reason, cut to {@link #MAX_ARRAY_ERROR} characters), so the
   * answer stays within the 6 MB Lambda returns: it was unbounded, and 300,000 empty elements (900
   * KB) made a 68 MB answer that Lambda could not return, after the valid ones were applied.
   */
  static final int MAX_ARRAY_ENVELOPES = 10_000;

  /** The characters of a rejected element's reason in an array's answer. */
  static final int MAX_ARRAY_ERROR = 300;

  /**
   * The bytes of an array's answer: under the 6 MB (6,291,456 bytes) Lambda returns, with room for
   * its own framing.
   */
  static final int MAX_ARRAY_ANSWER_BYTES = 6_000_000;

  /** The most bytes an element's short answer takes ({@link #shortAnswer}). */
  private static final int MAX_SHORT_ANSWER = 240;

  private static final Log FAILURES =
      Log.named(dev.statekit.runtime.FunctionRuntime.FAILURES_LOGGER);

  private final RuntimeSettings settings;
  private final BatchProcessor processor;

  /** DeliveryTranslator with these settings. */
  public DeliveryTranslator(RuntimeSettings settings) {
    this.settings = settings;
    this.processor = new BatchProcessor(settings);
  }

  /** Processes direct invocations; one result each, in order. */
  public List<DirectResult> invoke(List<DirectInvocation> invocations) {
    List<Delivery> deliveries = new ArrayList<>();
    for (DirectInvocation invocation : invocations) {
      deliveries.add(direct(deliveries.size(), invocation));
    }
    processor.process(deliveries);
    count(deliveries);
    List<DirectResult> results = new ArrayList<>();
    deliveries.forEach(d -> results.add(result(d)));
    return results;
  }

  /**
   * Processes calls: one answer each, in order, with the reply of each applied call.
   *
   * @param timeoutMillis how long a call waits for a busy address, 0 for the runtime's conflict
   *     retries alone
   */
  public List<CallResult> call(List<DirectInvocation> invocations, long timeoutMillis) {
    long deadline = timeoutMillis > 0 ? settings.clock.millis() + timeoutMillis : 0;
    List<Delivery> deliveries = new ArrayList<>();
    for (DirectInvocation invocation : invocations) {
      Delivery delivery = direct(deliveries.size(), invocation);
      delivery.call = true;
      delivery.callDeadlineMillis = deadline;
      deliveries.add(delivery);
    }
    processor.process(deliveries);
    List<CallResult> results = new ArrayList<>();
    deliveries.forEach(d -> results.add(CallAnswers.result(d)));
    return results;
  }

  /**
   * Processes a JSON payload: one envelope (answers {@code {"status": "applied"}} or {@code
   * "duplicate"}; a failure is thrown) or an array of envelopes (answers {@code {"results":
   * [...]}}, one per envelope, failures included).
   */
  public byte[] invokeJson(byte[] payload) {
    JsonNode node = EnvelopeCodec.tree(withoutByteOrderMark(payload));
    if (!node.isArray()) {
      Delivery delivery = envelope(0, node);
      if (delivery.invalid != null) {
        throw (RuntimeException) delivery.invalid;
      }
      processor.process(List.of(delivery));
      count(List.of(delivery));
      if (delivery.call) {
        // A call is answered whatever became of it: its caller waits for the reply or the reason.
        return PlainJson.text(CallAnswers.json(CallAnswers.result(delivery)))
            .getBytes(StandardCharsets.UTF_8);
      }
      DirectResult result = result(delivery);
      if (!result.succeeded()) {
        throw new dev.statekit.runtime.InvocationFailedException(result);
      }
      return PlainJson.text(status(result)).getBytes(StandardCharsets.UTF_8);
    }
    if (node.size() > MAX_ARRAY_ENVELOPES) {
      throw new InvalidEnvelopeException(
          "An array of "
              + node.size()
              + " envelopes; one invocation takes at most "
              + MAX_ARRAY_ENVELOPES
              + " (each is answered, and Lambda returns at most 6 MB): send them in several."
              + " Nothing of it was applied");
    }
    List<Delivery> deliveries = new ArrayList<>();
    for (JsonNode element : node) {
      deliveries.add(envelope(deliveries.size(), element));
    }
    processor.process(deliveries);
    count(deliveries);
    return arrayAnswer(deliveries);
  }

  /**
   * {@code {"results": [...]}}, one per envelope, within {@link #MAX_ARRAY_ANSWER_BYTES}: an
   * element whose whole answer (a reply of up to 16 KiB, a reason quoting the envelope) would leave
   * too little room for the ones after it is answered in short, its status kept and its reply or
   * reason left out, saying how to read it.
   */
  private static byte[] arrayAnswer(List<Delivery> deliveries) {
    java.io.ByteArrayOutputStream answer = new java.io.ByteArrayOutputStream();
    answer.writeBytes("{\"results\":[".getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < deliveries.size(); i++) {
      Delivery d = deliveries.get(i);
      ObjectNode whole = d.call ? CallAnswers.json(CallAnswers.result(d)) : shortStatus(result(d));
      byte[] element = PlainJson.text(whole).getBytes(StandardCharsets.UTF_8);
      long rest = (long) (deliveries.size() - 1 - i) * (MAX_SHORT_ANSWER + 1) + 2;
      if (answer.size() + 1L + element.length + rest > MAX_ARRAY_ANSWER_BYTES) {
        element = PlainJson.text(shortAnswer(d, whole)).getBytes(StandardCharsets.UTF_8);
      }
      if (i > 0) {
        answer.write(',');
      }
      answer.writeBytes(element);
    }
    answer.writeBytes("]}".getBytes(StandardCharsets.UTF_8));
    return answer.toByteArray();
  }

  /**
   * An element's answer without its reply or reason: ASCII of at most {@link #MAX_SHORT_ANSWER}.
   */
  private static ObjectNode shortAnswer(Delivery d, ObjectNode whole) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.set("status", whole.get("status"));
    String status = whole.path("status").asText();
    if (status.equals("applied") || status.equals("duplicate")) {
      if (whole.has("repeat")) {
        node.set("repeat", whole.get("repeat"));
      }
      if (d.call) {
        node.putNull("reply");
        node.put(
            "note",
            d.idempotencyKey != null
                ? "Applied; its reply did not fit in this answer (Lambda returns at most 6 MB):"
                    + " call again alone with the same id to read it"
                : "Applied; its reply did not fit in this answer (Lambda returns at most 6 MB),"
                    + " and a call without an id cannot read it again: give calls ids");
      }
      return node;
    }
    node.put(
        "error",
        "Its reason did not fit in this answer (Lambda returns at most 6 MB): send it again"
            + " alone, with the same id, to read it");
    if (whole.has("retry")) {
      node.set("retry", whole.get("retry"));
    }
    return node;
  }

  /**
   * The payload as text, without the UTF-8 byte order mark some producers write first: the entry
   * point recognised the envelope past it (JSON parsers of bytes skip it), so it must not then be
   * refused as "not JSON".
   */
  private static String withoutByteOrderMark(byte[] payload) {
    String text = new String(payload, StandardCharsets.UTF_8);
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  /**
   * Processes a queue batch by {@code deadline}; failed messages and, per FIFO group, those after
   * them come back.
   */
  public QueueBatchResult process(List<QueueMessage> messages, Deadline deadline) {
    if (settings.deadLetters == null) {
      throw new IllegalStateException(
          "Queue batches need a dead-letter queue for messages that can't be processed:"
              + " configure it with FunctionRuntime.builder(...).deadLetters(...)");
    }
    List<Delivery> deliveries = new ArrayList<>();
    for (QueueMessage message : messages) {
      deliveries.add(QueueBodyCodec.read(deliveries.size(), message, settings.targets));
    }
    processor.process(deliveries, deadline);
    List<String> failed = new ArrayList<>();
    Map<String, String> errors = new LinkedHashMap<>();
    Map<String, String> failedGroups = new HashMap<>();
    int applied = 0;
    int duplicates = 0;
    int deadLettered = 0;
    int deferred = 0;
    for (Delivery d : deliveries) {
      // Lambda's FIFO rule: after a group's failed message, its later messages come back too.
      String blocker = d.groupId == null ? null : failedGroups.get(d.groupId);
      if (d.outcome == DeliveryOutcome.FAILED || blocker != null) {
        failed.add(d.messageId);
        errors.put(
            d.messageId,
            blocker == null
                ? String.valueOf(d.error)
                : "Not applied yet: message " + blocker + " before it in its group failed");
        if (d.groupId != null) {
          failedGroups.putIfAbsent(d.groupId, d.messageId);
        }
      } else if (d.outcome == DeliveryOutcome.APPLIED) {
        applied++;
      } else if (d.outcome == DeliveryOutcome.DUPLICATE) {
        duplicates++;
      } else if (d.outcome == DeliveryOutcome.DEFERRED) {
        deferred++;
      } else {
        deadLettered++;
      }
    }
    // The queue's answer names only which messages come again; the log says why, with the
    // message's address and trace id as the line's fields.
    for (Delivery d : deliveries) {
      String error = errors.get(d.messageId);
      if (error != null) {
        try (Telemetry.Restore address =
                Telemetry.with(Telemetry.ADDRESS, d.target == null ? null : d.target.toString());
            Telemetry.Restore trace = Telemetry.with(Telemetry.TRACE_ID, traceOf(d))) {
          FAILURES.warn("Message " + d.messageId + " comes again: " + error);
        }
      }
    }
    Metrics.add(Metric.MESSAGES_APPLIED, applied);
    Metrics.add(Metric.REPEATS_DROPPED, duplicates);
    Metrics.add(Metric.MESSAGES_RETRIED, failed.size());
    return new QueueBatchResult(failed, errors, applied, duplicates, deadLettered, deferred);
  }

  private Delivery envelope(int position, JsonNode node) {
    try {
      EnvelopeCodec.Envelope envelope = EnvelopeCodec.parse(node, settings.targets);
      EnvelopeCodec.Call call = EnvelopeCodec.call(node);
      Delivery delivery = Delivery.direct(position, envelope.id());
      if (call != null) {
        delivery.call = true;
        delivery.callDeadlineMillis =
            call.timeoutMillis() > 0 ? settings.clock.millis() + call.timeoutMillis() : 0;
      }
      delivery.target = envelope.target();
      InboundInvocation inbound =
          InboundInvocation.ingress(
              delivery, new TypedValue(envelope.typeName(), envelope.value()));
      inbound.traceId = envelope.traceId() != null ? envelope.traceId() : enteringTrace();
      delivery.invocations.add(inbound);
      return delivery;
    } catch (InvalidEnvelopeException e) {
      Delivery delivery = Delivery.direct(position, null);
      delivery.invalid = e;
      // A refused call is answered as a call: its caller reads "retry": false.
      delivery.call = node.isObject() && node.path("call").asBoolean(false);
      return delivery;
    }
  }

  private static Delivery direct(int position, DirectInvocation invocation) {
    Message message = invocation.message();
    Delivery delivery = Delivery.direct(position, invocation.idempotencyKey());
    delivery.target = message.targetAddress();
    InboundInvocation inbound =
        InboundInvocation.ingress(
            delivery, new TypedValue(message.valueTypeName().asString(), message.rawValue()));
    inbound.traceId = enteringTrace();
    delivery.invocations.add(inbound);
    return delivery;
  }

  /** The trace id of a request entering without one: the invocation's, else a new one. */
  private static String enteringTrace() {
    String trace = Telemetry.invocationTraceId();
    return trace != null ? trace : TraceIds.newId();
  }

  private static String traceOf(Delivery d) {
    return d.invocations.isEmpty() ? null : d.invocations.get(0).traceId;
  }

  /** Counts direct invocations' outcomes into the invocation's metrics. */
  private static void count(List<Delivery> deliveries) {
    int applied = 0;
    int duplicates = 0;
    for (Delivery d : deliveries) {
      if (d.outcome == DeliveryOutcome.APPLIED) {
        applied++;
      } else if (d.outcome == DeliveryOutcome.DUPLICATE) {
        duplicates++;
      }
    }
    Metrics.add(Metric.MESSAGES_APPLIED, applied);
    Metrics.add(Metric.REPEATS_DROPPED, duplicates);
  }

  private static DirectResult result(Delivery d) {
    switch (d.outcome) {
      case APPLIED:
        return new DirectResult(DirectResult.Status.APPLIED, null);
      case DUPLICATE:
        return new DirectResult(DirectResult.Status.DUPLICATE, null);
      case DEAD_LETTERED:
        return new DirectResult(DirectResult.Status.REJECTED, d.error);
      default:
        return new DirectResult(DirectResult.Status.FAILED, d.error);
    }
  }

  /**
   * {@link #status} with its error cut to {@link #MAX_ARRAY_ERROR} characters: a reason may quote
   * what the envelope held, and every element of an array is answered, within what Lambda returns.
   */
  private static ObjectNode shortStatus(DirectResult result) {
    ObjectNode node = status(result);
    String error = node.path("error").asText("");
    if (error.length() > MAX_ARRAY_ERROR) {
      node.put("error", error.substring(0, MAX_ARRAY_ERROR) + "...");
    }
    return node;
  }

  private static ObjectNode status(DirectResult result) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("status", result.status().name().toLowerCase(Locale.ROOT));
    result.errorMessage().ifPresent(error -> node.put("error", error));
    return node;
  }
}
