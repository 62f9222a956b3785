package dev.statekit.entry;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.entry.internal.Answers;
import dev.statekit.entry.internal.EventReader;
import dev.statekit.entry.internal.PrimingSamples;
import dev.statekit.entry.internal.Routes;
import dev.statekit.entry.internal.RuntimeRoutes;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.http.FunctionHttpServer;
import dev.statekit.http.HttpEventAdapter;
import dev.statekit.http.HttpRouter;
import dev.statekit.protocol.PayloadKind;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.runtime.FunctionRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The one entry point of a StateKit application: {@link #invoke(byte[])} takes any payload Lambda
 * (or the local runner) hands over, recognises its {@linkplain PayloadShape shape} from a few bytes
 * or fields, routes it to what the application registered for it and answers in the shape the
 * caller expects:
 *
 * <table>
 *   <caption>Payloads and answers</caption>
 *   <tr><th>payload</th><th>routed to</th><th>answer</th></tr>
 *   <tr><td>StateFun {@code ToFunction}</td><td>{@link Builder#functions}</td><td>the {@code FromFunction} bytes</td></tr>
 *   <tr><td>Function URL / API Gateway event</td><td>{@link Builder#functions}</td><td>the HTTP response JSON</td></tr>
 *   <tr><td>ingress envelope, or an array of them</td><td>{@link Builder#envelopes}</td><td>the consumer's JSON</td></tr>
 *   <tr><td>SQS event</td><td>{@link Builder#queue} by queue name</td><td>{@code {"batchItemFailures": [...]}}</td></tr>
 *   <tr><td>Kinesis event</td><td>{@link Builder#kinesisStream} by stream name</td><td>{@code {"batchItemFailures": [...]}}</td></tr>
 *   <tr><td>DynamoDB Streams event</td><td>{@link Builder#dynamoDbStream} by table name</td><td>{@code {"batchItemFailures": [...]}}</td></tr>
 *   <tr><td>EventBridge scheduled event</td><td>every {@link Builder#scheduled} task</td><td>{@code {"tasks": {...}}}</td></tr>
 * </table>
 *
 * <p>A payload of no accepted shape is refused with an {@link UnrecognizedPayloadException} naming
 * every shape; one the application registered nothing for, with a {@link NoRouteException} naming
 * what is registered. Build one per process (in a Lambda handler's constructor) and share it: it is
 * immutable and thread-safe as long as its consumers are.
 */
public final class EntryPoint {
  /** Created on first use: ToFunction payloads never load Jackson (priming does, for SnapStart). */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private final RequestReplyHandler functions;
  private final HttpEventAdapter httpEvents;
  private final EnvelopeConsumer envelopes;
  private final Routes<BatchConsumer<QueueRecord>> queues;
  private final Routes<BatchConsumer<KinesisRecord>> kinesis;
  private final Routes<BatchConsumer<ChangeRecord>> dynamoDb;
  private final Map<String, ScheduledTask> tasks;
  private final List<Runnable> primers;

  private EntryPoint(Builder b) {
    this.functions = b.functions;
    this.httpEvents =
        b.functions == null
            ? null
            : new HttpEventAdapter(new HttpRouter(b.functions, b.maxRequestBytes));
    this.envelopes = b.envelopes;
    this.queues = b.queues;
    this.kinesis = b.kinesis;
    this.dynamoDb = b.dynamoDb;
    this.tasks = Collections.unmodifiableMap(new LinkedHashMap<>(b.tasks));
    this.primers = List.copyOf(b.primers);
  }

  /** Starts an entry point; register at least one route. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Answers one payload.
   *
   * @throws UnrecognizedPayloadException if the payload is of no accepted shape
   * @throws NoRouteException if nothing is registered for it
   * @throws IllegalArgumentException if an event lacks a field Lambda always sends
   * @throws RuntimeException what the routed-to code throws (for a batch: Lambda retries it whole)
   */
  public byte[] invoke(byte[] payload) {
    Objects.requireNonNull(payload, "payload");
    PayloadKind kind = PayloadKind.of(payload);
    if (kind == PayloadKind.TO_FUNCTION) {
      return requireFunctions(PayloadShape.TO_FUNCTION).invoke(payload);
    }
    if (kind != PayloadKind.JSON) {
      throw unrecognized(payload, "it is neither JSON nor a ToFunction");
    }
    JsonNode json = parse(payload);
    PayloadShape shape = PayloadShape.of(json);
    if (shape == null) {
      throw unrecognized(payload, "its JSON fields match none of them");
    }
    return switch (shape) {
      case HTTP_EVENT -> {
        requireFunctions(shape);
        yield httpEvents.handle(json);
      }
      case ENVELOPE, ENVELOPE_BATCH -> {
        if (envelopes == null) {
          throw noRoute(shape, "register envelopes(runtime) to apply direct invokes");
        }
        yield call(() -> envelopes.invoke(payload), "The envelope consumer");
      }
      case SQS -> batches(shape, EventReader.sqs(json), QueueRecord::queueName, queues);
      case KINESIS -> batches(shape, EventReader.kinesis(json), KinesisRecord::streamName, kinesis);
      case DYNAMODB_STREAM ->
          batches(shape, EventReader.dynamoDb(json), ChangeRecord::tableName, dynamoDb);
      case SCHEDULED -> scheduled(EventReader.scheduled(json));
      case TO_FUNCTION -> throw new IllegalStateException("A ToFunction is never JSON");
    };
  }

  /** The shape of {@code payload}, or {@code null} if it is none of the accepted ones. */
  public static PayloadShape shapeOf(byte[] payload) {
    PayloadKind kind = PayloadKind.of(payload);
    if (kind == PayloadKind.TO_FUNCTION) {
      return PayloadShape.TO_FUNCTION;
    }
    if (kind != PayloadKind.JSON) {
      return null;
    }
    try {
      return PayloadShape.of(Json.MAPPER.readTree(payload));
    } catch (IOException e) {
      return null;
    }
  }

  /** The functions served to StateFun runtimes, if any (tools decode stored state with them). */
  public java.util.Optional<StatefulFunctions> functions() {
    return java.util.Optional.ofNullable(functions).map(RequestReplyHandler::functions);
  }

  /** Whether anything is registered for payloads of {@code shape}. */
  public boolean accepts(PayloadShape shape) {
    return switch (shape) {
      case TO_FUNCTION, HTTP_EVENT -> functions != null;
      case ENVELOPE, ENVELOPE_BATCH -> envelopes != null;
      case SQS -> !queues.isEmpty();
      case KINESIS -> !kinesis.isEmpty();
      case DYNAMODB_STREAM -> !dynamoDb.isEmpty();
      case SCHEDULED -> !tasks.isEmpty();
    };
  }

  /** What this entry point routes, one line each: for logs and error messages. */
  public List<String> routes() {
    List<String> routes = new ArrayList<>();
    if (functions != null) {
      routes.add(
          "StateFun functions " + functions.functions().types() + " (ToFunction, HTTP events)");
    }
    if (envelopes != null) {
      routes.add("ingress envelopes (direct invokes)");
    }
    routes.addAll(queues.describe());
    routes.addAll(kinesis.describe());
    routes.addAll(dynamoDb.describe());
    tasks.keySet().forEach(name -> routes.add("scheduled task " + name));
    return routes;
  }

  /**
   * Loads and initialises what each payload shape needs, by reading one small sample of each
   * without routing it anywhere (no function runs, nothing is sent), then runs the registered
   * {@linkplain Builder#primer primers}. Call it before a SnapStart snapshot, so the first
   * invocation after a restore finds the classes ready.
   */
  public void prime() {
    for (String sample : PrimingSamples.JSON) {
      JsonNode json = parse(sample.getBytes(StandardCharsets.UTF_8));
      switch (PayloadShape.of(json)) {
        case HTTP_EVENT -> {
          if (httpEvents != null) {
            httpEvents.handle(json); // a GET: answered 405 before any function is looked up
          }
        }
        case SQS -> EventReader.sqs(json);
        case KINESIS -> EventReader.kinesis(json);
        case DYNAMODB_STREAM -> EventReader.dynamoDb(json);
        case SCHEDULED -> EventReader.scheduled(json);
        default -> {}
      }
    }
    Answers.batchItemFailures(List.of("primed"));
    Answers.tasks(Map.of("primed", Map.of("n", 0)));
    for (Runnable primer : primers) {
      try {
        primer.run();
      } catch (RuntimeException e) {
        // Priming only loads code: a primer that fails has still loaded what it reached.
        System.getLogger(EntryPoint.class.getName())
            .log(System.Logger.Level.DEBUG, "A primer failed: " + e, e);
      }
    }
  }

  private <R> byte[] batches(
      PayloadShape shape,
      List<R> records,
      Function<R, String> sourceName,
      Routes<BatchConsumer<R>> routes) {
    Map<String, List<R>> groups = Routes.group(records, sourceName);
    // Every group's route is checked before any runs, so a misrouted batch changes nothing.
    for (String source : groups.keySet()) {
      if (routes.get(source) == null) {
        throw noRoute(shape, "nothing consumes " + source);
      }
    }
    List<String> failed = new ArrayList<>();
    for (Map.Entry<String, List<R>> group : groups.entrySet()) {
      BatchConsumer<R> consumer = routes.get(group.getKey());
      BatchOutcome outcome =
          call(() -> consumer.accept(group.getValue()), "The consumer of " + group.getKey());
      failed.addAll(outcome.failedItemIds());
    }
    return Answers.batchItemFailures(failed);
  }

  private byte[] scheduled(ScheduledEvent event) {
    if (tasks.isEmpty()) {
      throw noRoute(
          PayloadShape.SCHEDULED, "register scheduled(name, task) for the sweep or a tick");
    }
    Map<String, Object> summaries = new LinkedHashMap<>();
    RuntimeException failure = null;
    // Each task runs even if another failed: a stuck tick must not stop delayed messages.
    for (Map.Entry<String, ScheduledTask> task : tasks.entrySet()) {
      String name = task.getKey();
      try {
        summaries.put(name, task.getValue().run(event));
      } catch (Exception e) {
        summaries.put(name, Map.of("error", String.valueOf(e.getMessage())));
        if (failure == null) {
          failure =
              new IllegalStateException(
                  "The scheduled task '" + name + "' failed: " + e.getMessage(), e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return Answers.tasks(summaries);
  }

  private RequestReplyHandler requireFunctions(PayloadShape shape) {
    if (functions == null) {
      throw noRoute(shape, "register functions(registry) to serve StateFun requests");
    }
    return functions;
  }

  private NoRouteException noRoute(PayloadShape shape, String what) {
    return new NoRouteException(
        "This entry point got "
            + shape.describe()
            + " but "
            + what
            + ". It routes: "
            + String.join("; ", routes()));
  }

  private static JsonNode parse(byte[] payload) {
    try {
      return Json.MAPPER.readTree(payload);
    } catch (JacksonException e) {
      throw new UnrecognizedPayloadException(
          "The payload looks like JSON but does not parse ("
              + e.getOriginalMessage()
              + "). "
              + accepted(),
          e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static UnrecognizedPayloadException unrecognized(byte[] payload, String why) {
    return new UnrecognizedPayloadException(
        "The payload ("
            + payload.length
            + " bytes, "
            + (payload.length == 0
                ? "empty"
                : "starting "
                    + HexFormat.ofDelimiter(" ").formatHex(payload, 0, Math.min(8, payload.length)))
            + ") is not one StateKit accepts: "
            + why
            + ". "
            + accepted());
  }

  /** Every accepted shape, for error messages. */
  static String accepted() {
    StringBuilder text = new StringBuilder("Send one of: ");
    PayloadShape[] shapes = PayloadShape.values();
    for (int i = 0; i < shapes.length; i++) {
      text.append(i == 0 ? "" : "; ").append(shapes[i].describe());
    }
    return text.append('.').toString();
  }

  private interface Call<T> {
    T run() throws Exception;
  }

  private static <T> T call(Call<T> call, String who) {
    try {
      return call.run();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(who + " failed: " + e.getMessage(), e);
    }
  }

  /** Registers what each payload shape goes to. */
  public static final class Builder {
    private RequestReplyHandler functions;
    private long maxRequestBytes = FunctionHttpServer.DEFAULT_MAX_REQUEST_BYTES;
    private EnvelopeConsumer envelopes;
    private final Routes<BatchConsumer<QueueRecord>> queues = new Routes<>("queue");
    private final Routes<BatchConsumer<KinesisRecord>> kinesis = new Routes<>("Kinesis stream");
    private final Routes<BatchConsumer<ChangeRecord>> dynamoDb =
        new Routes<>("DynamoDB stream of table");
    private final Map<String, ScheduledTask> tasks = new LinkedHashMap<>();
    private final List<Runnable> primers = new ArrayList<>();

    private Builder() {}

    /**
     * Adds work {@link #prime()} runs after its own: typically a copy of the application wired to
     * {@code dev.statekit.aws.Priming}'s offline clients, invoked once, so a SnapStart snapshot
     * holds the code a real invocation runs. A primer must not reach the network or real state; its
     * failures are logged and ignored.
     */
    public Builder primer(Runnable primer) {
      primers.add(Objects.requireNonNull(primer, "primer"));
      return this;
    }

    /** Serves {@code registry} to StateFun runtimes: ToFunction payloads and HTTP events. */
    public Builder functions(StatefulFunctions registry) {
      return functions(new RequestReplyHandler(Objects.requireNonNull(registry, "registry")));
    }

    /** Serves StateFun requests with {@code handler}. */
    public Builder functions(RequestReplyHandler handler) {
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
    public Builder maxRequestBytes(long maxRequestBytes) {
      if (maxRequestBytes < 1) {
        throw new IllegalArgumentException("maxRequestBytes is at least 1, got " + maxRequestBytes);
      }
      this.maxRequestBytes = maxRequestBytes;
      return this;
    }

    /** Applies direct invokes carrying ingress envelopes with {@code consumer}. */
    public Builder envelopes(EnvelopeConsumer consumer) {
      if (envelopes != null) {
        throw new IllegalArgumentException("envelopes(...) is already set; register one consumer");
      }
      this.envelopes = Objects.requireNonNull(consumer, "consumer");
      return this;
    }

    /**
     * Routes StateKit's self-hosted runtime: direct invokes with ingress envelopes, the batches of
     * the ingress queue (every queue not registered by name: the runtime's is usually the
     * application's only queue), and the timer sweep as the scheduled task {@code timers}.
     */
    public Builder runtime(FunctionRuntime runtime) {
      Objects.requireNonNull(runtime, "runtime");
      envelopes(runtime::invokeJson);
      anyQueue(records -> RuntimeRoutes.queueBatch(runtime, records));
      return scheduled("timers", event -> RuntimeRoutes.sweep(runtime));
    }

    /**
     * Like {@link #runtime(FunctionRuntime)}, with the ingress queue named (its name, URL or ARN),
     * for applications with other queues.
     */
    public Builder runtime(FunctionRuntime runtime, String ingressQueue) {
      Objects.requireNonNull(runtime, "runtime");
      envelopes(runtime::invokeJson);
      queue(ingressQueue, records -> RuntimeRoutes.queueBatch(runtime, records));
      return scheduled("timers", event -> RuntimeRoutes.sweep(runtime));
    }

    /**
     * Consumes the SQS events of one queue.
     *
     * @param queue the queue's name, URL or ARN
     */
    public Builder queue(String queue, BatchConsumer<QueueRecord> consumer) {
      queues.add(QueueRecord.queueName(queue), consumer);
      return this;
    }

    /** Consumes the SQS events of every queue not registered by name. */
    public Builder anyQueue(BatchConsumer<QueueRecord> consumer) {
      queues.addAny(consumer);
      return this;
    }

    /**
     * Consumes the Kinesis events of one stream.
     *
     * @param stream the stream's name or ARN
     */
    public Builder kinesisStream(String stream, BatchConsumer<KinesisRecord> consumer) {
      kinesis.add(KinesisRecord.streamName(stream), consumer);
      return this;
    }

    /** Consumes the Kinesis events of every stream not registered by name. */
    public Builder anyKinesisStream(BatchConsumer<KinesisRecord> consumer) {
      kinesis.addAny(consumer);
      return this;
    }

    /**
     * Consumes the DynamoDB Streams events of one table.
     *
     * @param table the table's name, ARN or stream ARN
     */
    public Builder dynamoDbStream(String table, BatchConsumer<ChangeRecord> consumer) {
      dynamoDb.add(ChangeRecord.tableName(table), consumer);
      return this;
    }

    /** Consumes the DynamoDB Streams events of every table not registered by name. */
    public Builder anyDynamoDbStream(BatchConsumer<ChangeRecord> consumer) {
      dynamoDb.addAny(consumer);
      return this;
    }

    /**
     * Runs {@code task} on every scheduled event, after the tasks registered before it.
     *
     * @param name the task's name in the answer (letters, digits, '-', '_', '.')
     */
    public Builder scheduled(String name, ScheduledTask task) {
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
          && queues.isEmpty()
          && kinesis.isEmpty()
          && dynamoDb.isEmpty()
          && tasks.isEmpty()) {
        throw new IllegalStateException(
            "An entry point with no routes answers nothing: register functions(...),"
                + " envelopes(...), queue(...), kinesisStream(...), dynamoDbStream(...) or"
                + " scheduled(...)");
      }
      return new EntryPoint(this);
    }
  }
}
