package dev.statekit.application;

import dev.statekit.aws.AwsConfig;
import dev.statekit.aws.Priming;
import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.aws.sqs.SqsMessageBus;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.MessageBus;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.EgressSink;
import dev.statekit.egress.LoggingSink;
import dev.statekit.entry.EntryPoint;
import dev.statekit.entry.EntryPointBuilder;
import dev.statekit.entry.Lazy;
import dev.statekit.event.BatchConsumer;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.QueueRecord;
import dev.statekit.event.ScheduledTask;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.RuntimeEnvironment;
import dev.statekit.handlers.Variables;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.InvocationObserver;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import dev.statekit.stream.lambda.kinesis.KinesisShards;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * An application wired on AWS from its variables, as {@code template.yaml} sets them.
 *
 * <p>The runtime's variables and the egress queues' are read and checked when the wiring is made (a
 * missing one, or a malformed endpoint, fails the handler's constructor), but the SDK clients, the
 * runtime and the pipelines are built with the first payload that needs them (so a variable only a
 * pipeline's factory reads is read then, or by the primer): a cold start whose first payload is a
 * StateFun request builds none; an envelope or an ingress batch builds the DynamoDB and SQS clients
 * and the runtime; a pipeline's batch or tick builds that pipeline and the Kinesis client too. The
 * primer builds all of them, so a SnapStart snapshot holds them built.
 */
final class AwsWiring {
  /** The schedule's rule: scheduled events of any other rule are refused. */
  static final String SCHEDULE_RULE = "STATEKIT_SCHEDULE_RULE";

  /** The function's timeout in seconds (optional, default 900, the most Lambda allows). */
  static final String BATCH_TIMEOUT_SECONDS = "STATEKIT_BATCH_TIMEOUT_SECONDS";

  /**
   * How the wiring gets its SDK clients: each factory is called once, when the first payload that
   * needs its service arrives (tests count the calls).
   */
  record Clients(
      Supplier<DynamoDbClient> dynamoDb, Supplier<SqsClient> sqs, Supplier<KinesisClient> kinesis) {
    /** Clients configured by {@code variables}, read and checked now, built on first use. */
    static Clients of(Variables variables) {
      Lazy<AwsConfig> aws = variables.awsOnFirstUse();
      return new Clients(
          () -> aws.get().dynamoDbClient(),
          () -> aws.get().sqsClient(),
          () -> aws.get().kinesisClient());
    }
  }

  private final Application application;
  private final Variables variables;
  private final StatefulFunctions functions;
  private final String table;
  private final String queue;
  private final String deadLetters;
  private final Optional<String> wakeUps;
  private final Duration batchTimeout;
  private final Map<TypeName, String> egressQueueUrls = new LinkedHashMap<>();
  private final Lazy<DynamoDbClient> dynamoDb;
  private final Lazy<SqsClient> sqs;
  private final Lazy<KinesisClient> kinesis;
  private final Lazy<Map<TypeName, EgressSink>> egressQueues;
  private final Lazy<FunctionRuntime> runtime;
  private final InvocationObserver observer;

  private AwsWiring(
      Application application, Variables variables, Clients clients, InvocationObserver observer) {
    this.application = application;
    this.observer = observer;
    this.variables = variables;
    this.functions = application.functions(variables);
    this.table = variables.required(RuntimeEnvironment.TABLE, "the application's DynamoDB table");
    this.queue = queueUrl(RuntimeEnvironment.QUEUE_URL, "the ingress FIFO queue");
    this.deadLetters =
        queueUrl(RuntimeEnvironment.DEAD_LETTER_QUEUE_URL, "the dead-letter FIFO queue");
    this.wakeUps = variables.optional(RuntimeEnvironment.WAKE_UP_QUEUE_URL);
    wakeUps.ifPresent(this::checkWakeUpQueue);
    for (EgressQueue route : application.egressQueues()) {
      egressQueueUrls.put(route.egress(), queueUrl(route.queueVariable(), route.meaning()));
    }
    // Lambda's longest timeout: a longer one is a mistake, and past a Duration's milliseconds it
    // would fail every batch's arithmetic.
    this.batchTimeout =
        Settings.seconds(
            variables, BATCH_TIMEOUT_SECONDS, Duration.ofMinutes(15), Duration.ofMinutes(15));
    this.dynamoDb = Lazy.of(clients.dynamoDb());
    this.sqs = Lazy.of(clients.sqs());
    this.kinesis = Lazy.of(clients.kinesis());
    this.egressQueues =
        Lazy.of(
            () -> {
              Map<TypeName, EgressSink> sinks = new LinkedHashMap<>();
              egressQueueUrls.forEach(
                  (name, url) -> sinks.put(name, new SqsEgressSink(sqs.get(), url)));
              return sinks;
            });
    this.runtime =
        Lazy.of(
            () -> {
              EgressRoutes.Builder egress = EgressRoutes.builder();
              egressQueues.get().forEach(egress::route);
              return runtime(
                  dynamoDb.get(), sqs.get(), egress.otherwise(new LoggingSink()).build());
            });
  }

  /**
   * A required queue URL, checked now: the buses that take it are built with the first payload, and
   * a queue named by its ARN or name would otherwise fail every payload instead of the constructor.
   */
  private String queueUrl(String name, String meaning) {
    String url = variables.required(name, meaning);
    checkUrl(name, url);
    return url;
  }

  private static void checkUrl(String name, String url) {
    if (!SqsMessageBus.isQueueUrl(url)) {
      throw new IllegalArgumentException(
          name
              + " is '"
              + url
              + "', not a queue URL: set it to the URL SQS gave the queue (https://..., in"
              + " template.yaml !Ref of the queue, not its ARN)");
    }
  }

  /**
   * The wake-up queue must be a standard queue of its own: SQS refuses a per-message delay on a
   * FIFO queue, so every wake-up would fail and each delayed message wait for the sweep.
   */
  private void checkWakeUpQueue(String url) {
    checkUrl(RuntimeEnvironment.WAKE_UP_QUEUE_URL, url);
    if (url.equals(queue) || url.endsWith(".fifo")) {
      throw new IllegalArgumentException(
          RuntimeEnvironment.WAKE_UP_QUEUE_URL
              + " is '"
              + url
              + "': the wake-up queue must be a standard queue of its own (per-message"
              + " DelaySeconds), not a FIFO queue nor the ingress queue");
    }
  }

  static AwsWiring of(Application application, Variables variables) {
    return of(application, variables, Clients.of(variables));
  }

  static AwsWiring of(Application application, Variables variables, Clients clients) {
    return new AwsWiring(application, variables, clients, InvocationObserver.NONE);
  }

  static AwsWiring of(Application application, Variables variables, InvocationObserver observer) {
    return new AwsWiring(application, variables, Clients.of(variables), observer);
  }

  EntryPoint eventsEntryPoint() {
    BatchConsumer<QueueRecord> queueBatches =
        builtWithFirstBatch(Lazy.of(() -> runtime.get().queueConsumer()));
    EntryPointBuilder entry =
        EntryPoint.builder()
            .functions(functions)
            .envelopes(json -> runtime.get().envelopeConsumer().invoke(json))
            // Request-reply calls on the function URL's /call/ paths, beside StateFun's.
            .httpCalls(json -> runtime.get().envelopeConsumer().invoke(json))
            .queue(queue, queueBatches)
            .scheduled(FunctionRuntime.SWEEP_TASK, event -> runtime.get().sweepTask().run(event));
    // Delayed messages' wake-ups reach the runtime as the ingress queue's batches do.
    wakeUps.ifPresent(url -> entry.queue(url, queueBatches));
    List<Runnable> builds = new ArrayList<>();
    builds.add(runtime::get);
    for (PipelineDeclaration declared : application.pipelines()) {
      String stream =
          variables.required(
              declared.streamVariable(),
              "the Kinesis stream pipeline " + declared.name() + " reads");
      Lazy<KinesisShards> shards =
          Lazy.of(
              () ->
                  new KinesisShards(
                      kinesis.get(),
                      stream,
                      pipeline(
                          declared,
                          new DynamoDbBatchStore(dynamoDb.get(), table),
                          runtime.get(),
                          egressQueues.get())));
      Lazy<BatchConsumer<KinesisRecord>> records = Lazy.of(() -> shards.get().kinesisConsumer());
      Lazy<ScheduledTask> tick = Lazy.of(() -> shards.get().tickTask());
      entry
          .kinesisStream(stream, builtWithFirstBatch(records))
          .scheduled(Application.tickTask(declared.name()), event -> tick.get().run(event));
      builds.add(records::get);
      builds.add(tick::get);
    }
    return entry
        .scheduleRule(variables.required(SCHEDULE_RULE, "the EventBridge rule of the schedule"))
        .primer(
            () -> {
              // Built before the snapshot; constructing a client opens no connection.
              builds.forEach(Runnable::run);
              prime(true);
            })
        .build();
  }

  EntryPoint ingressEntryPoint() {
    return EntryPoint.builder()
        .envelopes(json -> runtime.get().invokeJson(json))
        .primer(
            () -> {
              runtime.get();
              // The ingress function runs no pipeline and is given none of their variables.
              prime(false);
            })
        .build();
  }

  private FunctionRuntime runtime(DynamoDbClient client, SqsClient sqs, EgressRoutes egress) {
    return runtime(client, sqs, egress, new SqsMessageBus(sqs, queue), observer);
  }

  private FunctionRuntime runtime(
      DynamoDbClient client,
      SqsClient sqs,
      EgressRoutes egress,
      MessageBus ingress,
      InvocationObserver observer) {
    FunctionRuntime.Builder builder = FunctionRuntime.builder(functions);
    wakeUps.ifPresent(url -> builder.wakeUps(new SqsMessageBus(sqs, url)));
    return builder
        .store(new DynamoDbFunctionStore(client, table))
        .queue(ingress)
        .deadLetters(new SqsMessageBus(sqs, deadLetters))
        .egress(egress)
        .observer(observer)
        .build();
  }

  private BatchPipeline pipeline(
      PipelineDeclaration declared,
      BatchStore store,
      FunctionRuntime on,
      Map<TypeName, EgressSink> sinks) {
    return declared
        .factory()
        .build(
            new PipelineWiring(
                declared.name(), store, on, variables, batchTimeout, Clock.systemUTC(), sinks));
  }

  /**
   * Runs the declared priming payloads through a copy of the application wired to offline clients
   * ({@link Priming}): before a SnapStart snapshot, this loads the code of a real invocation (the
   * runtime, the SDK's request path) without a connection or a real write. The application's
   * pipelines with it ({@code pipelines}) only for the function that runs them: their factories
   * read variables only that function is given.
   */
  private void prime(boolean pipelines) {
    DynamoDbClient offlineDynamoDb = Priming.dynamoDbClient();
    SqsClient offlineSqs = Priming.sqsClient();
    MessageBus ingress = new SqsMessageBus(offlineSqs, queue);
    // Priming events name queues of their own (priming.fifo): a bus that names no queue lets the
    // offline runtime take them all, where the live one takes its ingress queue's only.
    MessageBus anyQueue =
        new MessageBus() {
          @Override
          public void send(List<BusMessage> messages) {
            ingress.send(messages);
          }

          @Override
          public int maxMessageBytes() {
            return ingress.maxMessageBytes();
          }
        };
    FunctionRuntime offline =
        runtime(
            offlineDynamoDb,
            offlineSqs,
            EgressRoutes.builder().otherwise(records -> {}).build(),
            anyQueue,
            // Nothing it runs happened: the application's observer hears of none of it.
            InvocationObserver.NONE);
    // Offline and never invoked from outside: it takes the priming events of any source. The
    // pipelines without their shard listing: priming calls no AWS API, not even offline Kinesis.
    EntryPointBuilder copy =
        EntryPoint.builder()
            .functions(functions)
            .envelopes(offline.envelopeConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, offline.sweepTask())
            .anyQueue(offline.queueConsumer())
            .anyScheduleRule();
    for (PipelineDeclaration declared :
        pipelines ? application.pipelines() : List.<PipelineDeclaration>of()) {
      // Its egress queues replaced by sinks that drop: priming sends nothing anywhere.
      Map<TypeName, EgressSink> dropped = new HashMap<>();
      egressQueueUrls.keySet().forEach(name -> dropped.put(name, records -> {}));
      BatchPipeline pipeline =
          pipeline(declared, new DynamoDbBatchStore(offlineDynamoDb, table), offline, dropped);
      copy.anyKinesisStream(pipeline.kinesisConsumer())
          .scheduled(Application.tickTask(declared.name()), pipeline.tickTask());
    }
    EntryPoint primed = copy.build();
    for (String payload : application.priming()) {
      try {
        primed.invoke(payload.getBytes(StandardCharsets.UTF_8));
      } catch (RuntimeException e) {
        // The offline answers are empty: a path that needs more has still loaded its code.
      }
    }
  }

  /**
   * A consumer built with its first batch: each batch goes to it with the invocation's deadline, by
   * which a pipeline's batch stops taking records.
   */
  private static <R> BatchConsumer<R> builtWithFirstBatch(Lazy<BatchConsumer<R>> consumer) {
    return BatchConsumer.byDeadline(
        (records, deadline) -> consumer.get().accept(records, deadline));
  }
}
