package dev.statekit.entry;

import dev.statekit.entry.internal.Routes;
import dev.statekit.entry.internal.SourceKind;
import dev.statekit.event.BatchConsumer;
import dev.statekit.event.ChangeRecord;
import dev.statekit.event.EnvelopeConsumer;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.QueueRecord;
import dev.statekit.event.ScheduledEvent;
import dev.statekit.event.ScheduledTask;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.http.FunctionHttpServer;
import dev.statekit.protocol.RequestReplyHandler;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Registers what each payload shape goes to, then builds the {@link EntryPoint}; from {@link
 * EntryPoint#builder()}. Every registration is checked when made.
 *
 * <p>Event-source events are routed only from the sources declared here: a queue, stream, table or
 * schedule rule named by its ARN matches that source alone; by URL (a queue), that name in that
 * account; by name, that name in any account. Whoever may invoke the function can send any JSON, so
 * a source left undeclared is one they could pass their own events off as. The {@code any...}
 * methods route every other source of a kind: use them only for a function that nothing but its
 * event source mappings may invoke.
 */
public final class EntryPointBuilder {
  /** The default payload limit: 8 MiB, above the 6 MB Lambda itself takes. */
  public static final long DEFAULT_MAX_PAYLOAD_BYTES = 8L * 1024 * 1024;

  RequestReplyHandler functions;
  long maxRequestBytes = FunctionHttpServer.DEFAULT_MAX_REQUEST_BYTES;
  long maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;
  EnvelopeConsumer envelopes;
  EnvelopeConsumer httpCalls;
  final Routes<BatchConsumer<QueueRecord>> queues = new Routes<>(SourceKind.QUEUE);
  final Routes<BatchConsumer<KinesisRecord>> kinesis = new Routes<>(SourceKind.STREAM);
  final Routes<BatchConsumer<ChangeRecord>> dynamoDb = new Routes<>(SourceKind.TABLE);
  final Routes<Boolean> rules = new Routes<>(SourceKind.RULE);
  final Map<String, ScheduledTask> tasks = new LinkedHashMap<>();
  final List<Runnable> primers = new ArrayList<>();

  EntryPointBuilder() {}

  /**
   * Adds work {@link EntryPoint#prime()} runs after its own: typically a copy of the application
   * wired to {@code dev.statekit.aws.Priming}'s offline clients, invoked once, so a SnapStart
   * snapshot holds the code a real invocation runs. A primer must not reach the network or real
   * state. What it throws fails {@link EntryPoint#prime()} (and so the snapshot): a primer catches
   * what it expects to fail offline (an invocation that needs a real answer), and lets a failure to
   * build what payloads need (a malformed variable) through.
   */
  public EntryPointBuilder primer(Runnable primer) {
    primers.add(Objects.requireNonNull(primer, "primer"));
    return this;
  }

  /** Serves {@code registry} to StateFun runtimes: ToFunction payloads and HTTP events. */
  public EntryPointBuilder functions(StatefulFunctions registry) {
    return functions(new RequestReplyHandler(Objects.requireNonNull(registry, "registry")));
  }

  /** Serves StateFun requests with {@code handler}. */
  public EntryPointBuilder functions(RequestReplyHandler handler) {
    if (functions != null) {
      throw new IllegalArgumentException("functions(...) is already set; register one registry");
    }
    this.functions = Objects.requireNonNull(handler, "handler");
    return this;
  }

  /**
   * The largest HTTP event body accepted (default {@link
   * FunctionHttpServer#DEFAULT_MAX_REQUEST_BYTES}).
   *
   * @throws IllegalArgumentException if under 1
   */
  public EntryPointBuilder maxRequestBytes(long maxRequestBytes) {
    if (maxRequestBytes < 1) {
      throw new IllegalArgumentException("maxRequestBytes is at least 1, got " + maxRequestBytes);
    }
    this.maxRequestBytes = maxRequestBytes;
    return this;
  }

  /**
   * The largest payload {@link EntryPoint#invoke} reads (default {@link
   * #DEFAULT_MAX_PAYLOAD_BYTES}); a larger one is a {@link PayloadTooLargeException}.
   *
   * @throws IllegalArgumentException if under 1
   */
  public EntryPointBuilder maxPayloadBytes(long maxPayloadBytes) {
    if (maxPayloadBytes < 1) {
      throw new IllegalArgumentException("maxPayloadBytes is at least 1, got " + maxPayloadBytes);
    }
    this.maxPayloadBytes = maxPayloadBytes;
    return this;
  }

  /**
   * Answers request-reply calls that arrive as HTTP events (a Function URL's {@code POST
   * /call/<namespace>/<type>/<id>}, beside the StateFun endpoint's paths) with {@code consumer}, a
   * function runtime's {@code envelopeConsumer()}. Direct invokes make calls through {@link
   * #envelopes} ({@code "call": true}); this opens the HTTP path, so whoever may call the URL may
   * apply messages to the runtime's functions.
   */
  public EntryPointBuilder httpCalls(EnvelopeConsumer consumer) {
    if (httpCalls != null) {
      throw new IllegalArgumentException("httpCalls(...) is already set; register one consumer");
    }
    this.httpCalls = Objects.requireNonNull(consumer, "consumer");
    return this;
  }

  /** Applies direct invokes carrying ingress envelopes with {@code consumer}. */
  public EntryPointBuilder envelopes(EnvelopeConsumer consumer) {
    if (envelopes != null) {
      throw new IllegalArgumentException("envelopes(...) is already set; register one consumer");
    }
    this.envelopes = Objects.requireNonNull(consumer, "consumer");
    return this;
  }

  /**
   * Consumes the SQS events of one queue.
   *
   * @param queue the queue's name, URL or ARN
   */
  public EntryPointBuilder queue(String queue, BatchConsumer<QueueRecord> consumer) {
    queues.add(queue, consumer);
    return this;
  }

  /**
   * Consumes the SQS events of every queue not declared by name: only for a function nothing but
   * its event source mappings may invoke.
   */
  public EntryPointBuilder anyQueue(BatchConsumer<QueueRecord> consumer) {
    queues.addAny(consumer);
    return this;
  }

  /**
   * Consumes the Kinesis events of one stream.
   *
   * @param stream the stream's name or ARN
   */
  public EntryPointBuilder kinesisStream(String stream, BatchConsumer<KinesisRecord> consumer) {
    kinesis.add(stream, consumer);
    return this;
  }

  /**
   * Consumes the Kinesis events of every stream not declared by name: only for a function nothing
   * but its event source mappings may invoke.
   */
  public EntryPointBuilder anyKinesisStream(BatchConsumer<KinesisRecord> consumer) {
    kinesis.addAny(consumer);
    return this;
  }

  /**
   * Consumes the DynamoDB Streams events of one table.
   *
   * @param table the table's name, ARN or stream ARN
   */
  public EntryPointBuilder dynamoDbStream(String table, BatchConsumer<ChangeRecord> consumer) {
    dynamoDb.add(table, consumer);
    return this;
  }

  /**
   * Consumes the DynamoDB Streams events of every table not declared by name: only for a function
   * nothing but its event source mappings may invoke.
   */
  public EntryPointBuilder anyDynamoDbStream(BatchConsumer<ChangeRecord> consumer) {
    dynamoDb.addAny(consumer);
    return this;
  }

  /**
   * Runs the scheduled tasks on the events of this EventBridge rule (repeat for several).
   *
   * @param rule the rule's ARN or name
   * @throws IllegalArgumentException if it names no rule
   */
  public EntryPointBuilder scheduleRule(String rule) {
    rules.add(rule, Boolean.TRUE);
    return this;
  }

  /**
   * Runs the scheduled tasks on the events of every rule not declared: only for a function nothing
   * but EventBridge may invoke (in memory, in tests).
   */
  public EntryPointBuilder anyScheduleRule() {
    rules.addAny(Boolean.TRUE);
    return this;
  }

  /**
   * Runs {@code task} on every scheduled event of a declared rule ({@link #scheduleRule}; a
   * scheduled event is refused while none is declared), after the tasks registered before it. A
   * task that may run long should stop before {@link ScheduledEvent#deadline()}.
   *
   * @param name the task's name in the answer (letters, digits, '-', '_', '.')
   */
  public EntryPointBuilder scheduled(String name, ScheduledTask task) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(task, "task");
    if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new IllegalArgumentException(
          "A task name is 1 to 64 letters, digits, '.', '_' or '-', got '" + name + "'");
    }
    if (tasks.putIfAbsent(name, task) != null) {
      throw new IllegalArgumentException("The scheduled task '" + name + "' is registered twice");
    }
    return this;
  }

  /**
   * The entry point.
   *
   * @throws IllegalStateException if nothing is registered
   */
  public EntryPoint build() {
    if (functions == null
        && envelopes == null
        && httpCalls == null
        && queues.isEmpty()
        && kinesis.isEmpty()
        && dynamoDb.isEmpty()
        && tasks.isEmpty()) {
      throw new IllegalStateException(
          "An entry point with no routes answers nothing: register functions(...),"
              + " envelopes(...), queue(...), kinesisStream(...),"
              + " dynamoDbStream(...) or scheduled(...)");
    }
    return new EntryPoint(new RouteTable(this));
  }
}
