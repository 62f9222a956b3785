package dev.statekit.application;

import dev.statekit.aws.AwsConfig;
import dev.statekit.aws.Priming;
import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.aws.sqs.SqsMessageBus;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.LoggingSink;
import dev.statekit.entry.EntryPoint;
import dev.statekit.entry.EntryPointBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.RuntimeEnvironment;
import dev.statekit.handlers.Variables;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import dev.statekit.stream.lambda.kinesis.KinesisShards;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/** An application wired on AWS from its variables, as {@code template.yaml} sets them. */
final class AwsWiring {
  /** The schedule's rule: scheduled events of any other rule are refused. */
  static final String SCHEDULE_RULE = "STATEKIT_SCHEDULE_RULE";

  /** The function's timeout in seconds (optional, default 900, the most Lambda allows). */
  static final String BATCH_TIMEOUT_SECONDS = "STATEKIT_BATCH_TIMEOUT_SECONDS";

  private final Application application;
  private final Variables variables;
  private final AwsConfig aws;
  private final StatefulFunctions functions;
  private final DynamoDbClient dynamoDb;
  private final String table;
  private final String queue;
  private final String deadLetters;
  private final FunctionRuntime runtime;
  private final Duration batchTimeout;
  private final java.util.Map<dev.statekit.types.TypeName, dev.statekit.egress.EgressSink>
      egressQueues = new java.util.LinkedHashMap<>();

  private AwsWiring(Application application, Variables variables) {
    this.application = application;
    this.variables = variables;
    this.aws = variables.aws();
    SqsClient sqs = aws.sqsClient();
    this.functions = application.functions(variables);
    this.table = variables.required(RuntimeEnvironment.TABLE, "the application's DynamoDB table");
    this.queue = variables.required(RuntimeEnvironment.QUEUE_URL, "the ingress FIFO queue");
    this.deadLetters =
        variables.required(RuntimeEnvironment.DEAD_LETTER_QUEUE_URL, "the dead-letter FIFO queue");
    EgressRoutes.Builder egress = EgressRoutes.builder();
    for (EgressQueue route : application.egressQueues()) {
      SqsEgressSink sink =
          new SqsEgressSink(sqs, variables.required(route.queueVariable(), route.meaning()));
      egress.route(route.egress(), sink);
      egressQueues.put(route.egress(), sink);
    }
    this.dynamoDb = aws.dynamoDbClient();
    this.runtime = runtime(dynamoDb, sqs, egress.otherwise(new LoggingSink()).build());
    this.batchTimeout = Settings.seconds(variables, BATCH_TIMEOUT_SECONDS, Duration.ofMinutes(15));
  }

  static AwsWiring of(Application application, Variables variables) {
    return new AwsWiring(application, variables);
  }

  EntryPoint eventsEntryPoint() {
    EntryPointBuilder entry =
        EntryPoint.builder()
            .functions(functions)
            .envelopes(runtime.envelopeConsumer())
            .queue(queue, runtime.queueConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask());
    for (PipelineDeclaration declared : application.pipelines()) {
      String stream =
          variables.required(
              declared.streamVariable(),
              "the Kinesis stream pipeline " + declared.name() + " reads");
      BatchPipeline pipeline =
          pipeline(declared, new DynamoDbBatchStore(dynamoDb, table), runtime, egressQueues);
      KinesisShards shards = new KinesisShards(aws.kinesisClient(), stream, pipeline);
      entry
          .kinesisStream(stream, shards.kinesisConsumer())
          .scheduled(Application.tickTask(declared.name()), shards.tickTask());
    }
    return entry
        .scheduleRule(variables.required(SCHEDULE_RULE, "the EventBridge rule of the schedule"))
        .primer(this::prime)
        .build();
  }

  EntryPoint ingressEntryPoint() {
    return EntryPoint.builder().envelopes(runtime::invokeJson).primer(this::prime).build();
  }

  private FunctionRuntime runtime(DynamoDbClient client, SqsClient sqs, EgressRoutes egress) {
    return FunctionRuntime.builder(functions)
        .store(new DynamoDbFunctionStore(client, table))
        .queue(new SqsMessageBus(sqs, queue))
        .deadLetters(new SqsMessageBus(sqs, deadLetters))
        .egress(egress)
        .build();
  }

  private BatchPipeline pipeline(
      PipelineDeclaration declared,
      dev.statekit.stream.lambda.BatchStore store,
      FunctionRuntime on,
      java.util.Map<dev.statekit.types.TypeName, dev.statekit.egress.EgressSink> sinks) {
    return declared
        .factory()
        .build(
            new PipelineWiring(
                declared.name(), store, on, variables, batchTimeout, Clock.systemUTC(), sinks));
  }

  /**
   * Runs the declared priming payloads through a copy of the application wired to offline clients
   * ({@link Priming}): before a SnapStart snapshot, this loads the code of a real invocation (the
   * runtime, the SDK's request path) without a connection or a real write.
   */
  private void prime() {
    DynamoDbClient offlineDynamoDb = Priming.dynamoDbClient();
    FunctionRuntime offline =
        runtime(
            offlineDynamoDb,
            Priming.sqsClient(),
            EgressRoutes.builder().otherwise(records -> {}).build());
    // Offline and never invoked from outside: it takes the priming events of any source. The
    // pipelines without their shard listing: priming calls no AWS API, not even offline Kinesis.
    EntryPointBuilder copy =
        EntryPoint.builder()
            .functions(functions)
            .envelopes(offline.envelopeConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, offline.sweepTask())
            .anyQueue(offline.queueConsumer())
            .anyScheduleRule();
    for (PipelineDeclaration declared : application.pipelines()) {
      // Its egress queues replaced by sinks that drop: priming sends nothing anywhere.
      java.util.Map<dev.statekit.types.TypeName, dev.statekit.egress.EgressSink> dropped =
          new java.util.HashMap<>();
      egressQueues.keySet().forEach(name -> dropped.put(name, records -> {}));
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
}
