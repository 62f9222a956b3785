package dev.statekit.entry;

import dev.statekit.entry.internal.Routes;
import dev.statekit.event.BatchConsumer;
import dev.statekit.event.ChangeRecord;
import dev.statekit.event.EnvelopeConsumer;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.QueueRecord;
import dev.statekit.event.ScheduledTask;
import dev.statekit.http.HttpEventAdapter;
import dev.statekit.http.HttpRouter;
import dev.statekit.protocol.RequestReplyHandler;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What an entry point routes each payload shape to, fixed when its builder builds it. */
final class RouteTable {
  final RequestReplyHandler functions;
  final HttpEventAdapter httpEvents;
  final EnvelopeConsumer envelopes;
  final Routes<BatchConsumer<QueueRecord>> queues;
  final Routes<BatchConsumer<KinesisRecord>> kinesis;
  final Routes<BatchConsumer<ChangeRecord>> dynamoDb;
  final Routes<Boolean> rules;
  final Map<String, ScheduledTask> tasks;
  final long maxPayloadBytes;
  final List<Runnable> primers;

  /** Copies what {@code b} registered, so a builder used again changes no built entry point. */
  RouteTable(EntryPointBuilder b) {
    this.functions = b.functions;
    this.httpEvents =
        b.functions == null && b.httpCalls == null
            ? null
            : new HttpEventAdapter(new HttpRouter(b.functions, b.maxRequestBytes, b.httpCalls));
    this.envelopes = b.envelopes;
    this.queues = b.queues.copy();
    this.kinesis = b.kinesis.copy();
    this.dynamoDb = b.dynamoDb.copy();
    this.rules = b.rules.copy();
    this.maxPayloadBytes = b.maxPayloadBytes;
    this.tasks = Collections.unmodifiableMap(new LinkedHashMap<>(b.tasks));
    this.primers = List.copyOf(b.primers);
  }

  boolean accepts(PayloadShape shape) {
    return switch (shape) {
      case TO_FUNCTION -> functions != null;
      case HTTP_EVENT -> httpEvents != null;
      case ENVELOPE, ENVELOPE_BATCH -> envelopes != null;
      case SQS -> !queues.isEmpty();
      case KINESIS -> !kinesis.isEmpty();
      case DYNAMODB_STREAM -> !dynamoDb.isEmpty();
      case SCHEDULED -> !tasks.isEmpty() && !rules.isEmpty();
    };
  }

  /** One line per route, for logs and error messages. */
  List<String> describe() {
    List<String> routes = new ArrayList<>();
    if (functions != null) {
      routes.add(
          "StateFun functions " + functions.functions().types() + " (ToFunction, HTTP events)");
    }
    if (envelopes != null) {
      routes.add("ingress envelopes (direct invokes)");
    }
    if (httpEvents != null && functions == null) {
      routes.add("request-reply calls (HTTP events, POST /call/<namespace>/<type>/<id>)");
    }
    routes.addAll(queues.describe());
    routes.addAll(kinesis.describe());
    routes.addAll(dynamoDb.describe());
    if (!tasks.isEmpty()) {
      routes.add(
          "scheduled tasks " + tasks.keySet() + " on " + String.join(", ", rules.describe()));
    }
    return routes;
  }
}
