package dev.statekit.entry;

import dev.statekit.entry.internal.Routes;
import dev.statekit.entry.internal.RuntimeRoutes;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.http.FunctionHttpServer;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.runtime.FunctionRuntime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Registers what each payload shape goes to, then builds the {@link EntryPoint}; from {@link
 * EntryPoint#builder()}. Every registration is checked when made.
 */
public final class EntryPointBuilder {
  RequestReplyHandler functions;
  long maxRequestBytes = FunctionHttpServer.DEFAULT_MAX_REQUEST_BYTES;
  EnvelopeConsumer envelopes;
  final Routes<BatchConsumer<QueueRecord>> queues = new Routes<>("queue");
  final Routes<BatchConsumer<KinesisRecord>> kinesis = new Routes<>("Kinesis stream");
  final Routes<BatchConsumer<ChangeRecord>> dynamoDb = new Routes<>("DynamoDB stream of table");
  final Map<String, ScheduledTask> tasks = new LinkedHashMap<>();
  final List<Runnable> primers = new ArrayList<>();

  EntryPointBuilder() {}

  /**
   * Adds work {@link EntryPoint#prime()} runs after its own: typically a copy of the application
   * wired to {@code dev.statekit.aws.Priming}'s offline clients, invoked once, so a SnapStart
   * snapshot holds the code a real invocation runs. A primer must not reach the network or real
   * state; its failures are logged and ignored.
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

  /** Applies direct invokes carrying ingress envelopes with {@code consumer}. */
  public EntryPointBuilder envelopes(EnvelopeConsumer consumer) {
    if (envelopes != null) {
      throw new IllegalArgumentException("envelopes(...) is already set; register one consumer");
    }
    this.envelopes = Objects.requireNonNull(consumer, "consumer");
    return this;
  }

  /**
   * Routes StateKit's self-hosted runtime: direct invokes with ingress envelopes, the batches of
   * the ingress queue (every queue not registered by name: the runtime's is usually the
   * application's only queue), and the timer sweep as the scheduled task {@code timers}, which
   * stops before the invocation's deadline ({@link
   * FunctionRuntime#sweepTimers(dev.statekit.Deadline)}).
   */
  public EntryPointBuilder runtime(FunctionRuntime runtime) {
    return runtime(runtime, this::anyQueue);
  }

  /**
   * Like {@link #runtime(FunctionRuntime)}, with the ingress queue named (its name, URL or ARN),
   * for applications with other queues.
   */
  public EntryPointBuilder runtime(FunctionRuntime runtime, String ingressQueue) {
    Objects.requireNonNull(ingressQueue, "ingressQueue");
    return runtime(runtime, consumer -> queue(ingressQueue, consumer));
  }

  private EntryPointBuilder runtime(
      FunctionRuntime runtime, Consumer<BatchConsumer<QueueRecord>> ingress) {
    Objects.requireNonNull(runtime, "runtime");
    envelopes(runtime::invokeJson);
    ingress.accept(records -> RuntimeRoutes.queueBatch(runtime, records));
    return scheduled("timers", event -> RuntimeRoutes.sweep(runtime, event.deadline()));
  }

  /**
   * Consumes the SQS events of one queue.
   *
   * @param queue the queue's name, URL or ARN
   */
  public EntryPointBuilder queue(String queue, BatchConsumer<QueueRecord> consumer) {
    queues.add(QueueRecord.queueName(queue), consumer);
    return this;
  }

  /** Consumes the SQS events of every queue not registered by name. */
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
    kinesis.add(KinesisRecord.streamName(stream), consumer);
    return this;
  }

  /** Consumes the Kinesis events of every stream not registered by name. */
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
    dynamoDb.add(ChangeRecord.tableName(table), consumer);
    return this;
  }

  /** Consumes the DynamoDB Streams events of every table not registered by name. */
  public EntryPointBuilder anyDynamoDbStream(BatchConsumer<ChangeRecord> consumer) {
    dynamoDb.addAny(consumer);
    return this;
  }

  /**
   * Runs {@code task} on every scheduled event, after the tasks registered before it. A task that
   * may run long should stop before {@link ScheduledEvent#deadline()}.
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
        && queues.isEmpty()
        && kinesis.isEmpty()
        && dynamoDb.isEmpty()
        && tasks.isEmpty()) {
      throw new IllegalStateException(
          "An entry point with no routes answers nothing: register functions(...),"
              + " envelopes(...), runtime(...), queue(...), kinesisStream(...),"
              + " dynamoDbStream(...) or scheduled(...)");
    }
    return new EntryPoint(new RouteTable(this));
  }
}
