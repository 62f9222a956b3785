package dev.statekit.examples;

import dev.statekit.aws.AwsConfig;
import dev.statekit.aws.Priming;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.EgressSink;
import dev.statekit.egress.LoggingSink;
import dev.statekit.egress.SqsEgressSink;
import dev.statekit.entry.EntryPoint;
import dev.statekit.examples.fraud.Card;
import dev.statekit.examples.fraud.FraudCheck;
import dev.statekit.examples.greeter.Audit;
import dev.statekit.examples.greeter.Greeter;
import dev.statekit.examples.greeter.Reminder;
import dev.statekit.examples.shop.Cart;
import dev.statekit.examples.shop.Inventory;
import dev.statekit.examples.shop.ShopMessages;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.KinesisShards;
import dev.statekit.handlers.RuntimeEnvironment;
import dev.statekit.handlers.Variables;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.bus.InMemoryMessageBus;
import dev.statekit.runtime.bus.InMemoryStandardQueue;
import dev.statekit.runtime.bus.SqsMessageBus;
import dev.statekit.runtime.store.DynamoDbFunctionStore;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.InMemoryBatchStore;
import dev.statekit.stream.state.dynamodb.DynamoDbBatchStore;
import java.time.Clock;
import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Every example behind one entry point: the greeter family, the shop (carts and inventory) and the
 * fraud check, served to StateFun runtimes and run by StateKit's own runtime (state in the
 * application table, messages over the ingress queue, delayed messages swept every minute). The
 * fraud check's pipeline reads the transactions stream's Kinesis batches (its state and checkpoints
 * in the same table, its tick beside the timer sweep) and applies its alerts to the {@code
 * fraud/card} functions through the runtime. Greetings and orders go to their queues; the other
 * egresses to the log.
 */
public final class ExampleApp {
  /** The greeter's egress queue. */
  public static final String GREETS_QUEUE_URL = "GREETS_QUEUE_URL";

  /** The shop's orders queue. */
  public static final String ORDERS_QUEUE_URL = "ORDERS_QUEUE_URL";

  /** The carts' hold time in seconds (optional, default 900). */
  public static final String HOLD_SECONDS = "STATEKIT_HOLD_SECONDS";

  /** The Kinesis stream of card transactions the fraud check reads (its name or ARN). */
  public static final String TRANSACTIONS_STREAM = "TRANSACTIONS_STREAM";

  /**
   * How long a shard of the transactions stream may be silent before the fraud check's windows fire
   * without it, in seconds (optional, default 60).
   */
  public static final String FRAUD_IDLE_SECONDS = "FRAUD_IDLE_SECONDS";

  /**
   * The function's timeout in seconds, the longest one batch can run (optional, default 900, the
   * most Lambda allows): an idle shard's watermark fires windows only this long after it moved.
   */
  public static final String BATCH_TIMEOUT_SECONDS = "STATEKIT_BATCH_TIMEOUT_SECONDS";

  /**
   * The EventBridge rule of the minute tick (its name or ARN): scheduled events of any other rule
   * are refused.
   */
  public static final String SCHEDULE_RULE = "STATEKIT_SCHEDULE_RULE";

  /** The name of the fraud check's tick among the scheduled tasks. */
  public static final String FRAUD_TICK = FraudCheck.NAME + "-tick";

  private ExampleApp() {}

  /** The example functions, carts holding reservations for {@code hold}. */
  public static StatefulFunctions functions(Duration hold) {
    return StatefulFunctions.builder()
        .withFunction(Greeter.TYPE, new Greeter(), Greeter.SEEN)
        .withFunction(Audit.TYPE, new Audit(), Audit.TOTAL)
        .withFunction(Reminder.TYPE, new Reminder())
        .withFunction(Cart.TYPE, new Cart(hold), Cart.STATE)
        .withFunction(Inventory.TYPE, new Inventory(), Inventory.STATE)
        .withFunction(Card.TYPE, new Card(), Card.BLOCK)
        .build();
  }

  /** Where the examples' egresses go: greetings and orders to their sinks, the rest to the log. */
  public static EgressRoutes egress(EgressSink greets, EgressSink orders, EgressSink others) {
    return EgressRoutes.builder()
        .route(Greeter.GREETS, greets)
        .route(ShopMessages.ORDERS, orders)
        .otherwise(others)
        .build();
  }

  /**
   * The entry point of the examples' event sources, wired from {@code variables} as on Lambda: the
   * ingress queue's batches (that queue only, by its URL), the transactions stream's (that stream
   * only, by its ARN), the minute tick (that rule only) and the StateFun requests of the function
   * URL. {@code template.yaml} lets nothing else invoke it; producers invoke {@link
   * #ingressEntryPoint} instead.
   */
  public static EntryPoint entryPoint(Variables variables) {
    AwsConfig aws = variables.aws();
    Wiring wiring = Wiring.of(variables, aws);
    String stream =
        variables.required(TRANSACTIONS_STREAM, "the Kinesis stream of card transactions");
    String rule = variables.required(SCHEDULE_RULE, "the EventBridge rule of the minute tick");
    Duration idle = seconds(variables, FRAUD_IDLE_SECONDS, FraudCheck.IDLE_TIMEOUT);
    Duration batchTimeout = seconds(variables, BATCH_TIMEOUT_SECONDS, Duration.ofMinutes(15));
    BatchPipeline fraudCheck =
        ExamplePipelines.fraudCheck(
            new DynamoDbBatchStore(wiring.dynamoDb(), wiring.table()),
            wiring.runtime(),
            idle,
            batchTimeout,
            Clock.systemUTC());
    KinesisShards shards = new KinesisShards(aws.kinesisClient(), stream, fraudCheck);
    return EntryPoint.builder()
        .functions(wiring.functions())
        .runtime(wiring.runtime(), wiring.queue(), wiring.wakeUps())
        .kinesisStream(stream, shards.kinesisConsumer())
        .scheduled(FRAUD_TICK, shards.tickTask())
        .scheduleRule(rule)
        .primer(() -> prime(wiring, idle, batchTimeout))
        .build();
  }

  /**
   * The entry point producers invoke directly: ingress envelopes, nothing else (an event-source
   * event or a StateFun request sent here is refused), so that being allowed to invoke it is not
   * being allowed to pass an event off as the ingress queue's or the stream's.
   */
  public static EntryPoint ingressEntryPoint(Variables variables) {
    Wiring wiring = Wiring.of(variables, variables.aws());
    return EntryPoint.builder()
        .envelopes(wiring.runtime()::invokeJson)
        .primer(() -> prime(wiring, FraudCheck.IDLE_TIMEOUT, Duration.ofMinutes(15)))
        .build();
  }

  /** What both entry points share: the functions on the runtime, from the same variables. */
  private record Wiring(
      StatefulFunctions functions,
      DynamoDbClient dynamoDb,
      String table,
      String queue,
      String deadLetters,
      String wakeUps,
      FunctionRuntime runtime) {
    static Wiring of(Variables variables, AwsConfig aws) {
      SqsClient sqs = aws.sqsClient();
      StatefulFunctions functions = ExampleApp.functions(hold(variables));
      String table =
          variables.required(RuntimeEnvironment.TABLE, "the application's DynamoDB table");
      String queue = variables.required(RuntimeEnvironment.QUEUE_URL, "the ingress FIFO queue");
      String deadLetters =
          variables.required(
              RuntimeEnvironment.DEAD_LETTER_QUEUE_URL, "the dead-letter FIFO queue");
      EgressRoutes egress =
          egress(
              new SqsEgressSink(
                  sqs, variables.required(GREETS_QUEUE_URL, "the greeter's egress queue")),
              new SqsEgressSink(
                  sqs, variables.required(ORDERS_QUEUE_URL, "the shop's orders queue")),
              new LoggingSink());
      String wakeUps =
          variables.required(
              RuntimeEnvironment.WAKE_UP_QUEUE_URL,
              "the wake-up standard queue of delayed messages");
      DynamoDbClient dynamoDb = aws.dynamoDbClient();
      return new Wiring(
          functions,
          dynamoDb,
          table,
          queue,
          deadLetters,
          wakeUps,
          ExampleApp.runtime(functions, dynamoDb, sqs, table, queue, deadLetters, wakeUps, egress));
    }
  }

  private static FunctionRuntime runtime(
      StatefulFunctions functions,
      DynamoDbClient dynamoDb,
      SqsClient sqs,
      String table,
      String queue,
      String deadLetters,
      String wakeUps,
      EgressRoutes egress) {
    return FunctionRuntime.builder(functions)
        .store(new DynamoDbFunctionStore(dynamoDb, table))
        .queue(new SqsMessageBus(sqs, queue))
        .wakeUps(new SqsMessageBus(sqs, wakeUps))
        .deadLetters(new SqsMessageBus(sqs, deadLetters))
        .egress(egress)
        .build();
  }

  /**
   * Runs a direct invoke, a queue batch and a sweep through a copy of the application wired to
   * offline clients ({@link Priming}): before a SnapStart snapshot, this loads the code of a real
   * invocation (the runtime, the SDK's request path) without a connection or a real write.
   */
  private static void prime(Wiring wiring, Duration idle, Duration batchTimeout) {
    DynamoDbClient dynamoDb = Priming.dynamoDbClient();
    String table = wiring.table();
    FunctionRuntime offline =
        runtime(
            wiring.functions(),
            dynamoDb,
            Priming.sqsClient(),
            table,
            wiring.queue(),
            wiring.deadLetters(),
            wiring.wakeUps(),
            EgressRoutes.builder().otherwise(records -> {}).build());
    // The pipeline without its shard listing: priming calls no AWS API, not even offline Kinesis.
    BatchPipeline fraudCheck =
        ExamplePipelines.fraudCheck(
            new DynamoDbBatchStore(dynamoDb, table),
            offline,
            idle,
            batchTimeout,
            Clock.systemUTC());
    // Offline and never invoked from outside: it takes the priming events of any source.
    EntryPoint copy =
        EntryPoint.builder()
            .functions(wiring.functions())
            .runtimeOnAnyQueue(offline)
            .anyKinesisStream(fraudCheck.kinesisConsumer())
            .scheduled(FRAUD_TICK, fraudCheck.tickTask())
            .anyScheduleRule()
            .build();
    for (String payload : PRIMING) {
      try {
        copy.invoke(payload.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      } catch (RuntimeException e) {
        // The offline answers are empty: a path that needs more has still loaded its code.
      }
    }
  }

  private static final String[] PRIMING = {
    "{\"target\":\"example/greeter/priming\",\"typename\":\"io.statefun.types/string\",\"value\":\"hi\"}",
    "{\"Records\":[{\"messageId\":\"priming\",\"body\":\"{\\\"target\\\":\\\"example/greeter/priming\\\","
        + "\\\"typename\\\":\\\"io.statefun.types/string\\\",\\\"value\\\":\\\"hi\\\"}\","
        + "\"attributes\":{\"MessageGroupId\":\"example/greeter/priming\",\"SequenceNumber\":\"1\","
        + "\"ApproximateReceiveCount\":\"1\"},\"eventSource\":\"aws:sqs\","
        + "\"eventSourceARN\":\"arn:aws:sqs:us-east-1:000000000000:priming.fifo\"}]}",
    "{\"id\":\"priming\",\"detail-type\":\"Scheduled Event\",\"source\":\"aws.events\","
        + "\"time\":\"2024-01-01T00:00:00Z\",\"resources\":[],\"detail\":{}}",
    "{\"Records\":[{\"kinesis\":{\"partitionKey\":\"priming\",\"sequenceNumber\":\"1\","
        + "\"data\":\"eyJpZCI6InByaW1pbmciLCJjYXJkIjoicHJpbWluZyIsImFtb3VudENlbnRzIjoxLCJtZXJjaGFudCI6In"
        + "ByaW1pbmciLCJjb3VudHJ5IjoiRlIiLCJ0aW1lIjowfQ==\",\"approximateArrivalTimestamp\":0},"
        + "\"eventSource\":\"aws:kinesis\",\"eventID\":\"shardId-000000000000:1\","
        + "\"eventSourceARN\":\"arn:aws:kinesis:us-east-1:000000000000:stream/priming\"}]}"
  };

  /**
   * The examples with nothing but the JDK: state and timers in memory, the ingress and dead-letter
   * queues in memory, greetings and orders collected, the other egresses logged, the fraud check
   * over an in-memory batch store reading the Kinesis events of any stream (shards join with their
   * first batch: there is no stream to list them from).
   *
   * @param idle how long a shard may be silent before the fraud check's windows fire without it
   * @param clock the clock of expiry, delays, queue visibility and idle shards
   */
  public static InMemory inMemory(Duration hold, Duration idle, Clock clock) {
    StatefulFunctions functions = functions(hold);
    InMemoryFunctionStore store = new InMemoryFunctionStore();
    InMemoryMessageBus ingress = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    InMemoryMessageBus deadLetters = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    InMemoryStandardQueue wakeUps = new InMemoryStandardQueue(clock, Duration.ofSeconds(30));
    CollectingEgressSink greets = new CollectingEgressSink();
    CollectingEgressSink orders = new CollectingEgressSink();
    FunctionRuntime runtime =
        FunctionRuntime.builder(functions)
            .store(store)
            .queue(ingress)
            .deadLetters(deadLetters)
            .wakeUps(wakeUps)
            .egress(egress(greets, orders, new LoggingSink()))
            .clock(clock)
            .build();
    // One process runs every batch, none for long: a second is batch timeout enough.
    BatchPipeline fraudCheck =
        ExamplePipelines.fraudCheck(
            new InMemoryBatchStore(), runtime, idle, Duration.ofSeconds(1), clock);
    // In one process nothing but the local runner invokes it: any queue, stream and rule will do.
    EntryPoint entryPoint =
        EntryPoint.builder()
            .functions(functions)
            .runtimeOnAnyQueue(runtime)
            .anyKinesisStream(fraudCheck.kinesisConsumer())
            .scheduled(FRAUD_TICK, fraudCheck.tickTask())
            .anyScheduleRule()
            .build();
    return new InMemory(
        functions, store, ingress, deadLetters, wakeUps, greets, orders, entryPoint);
  }

  /**
   * The examples wired in memory.
   *
   * @param functions the registry
   * @param store state and timers
   * @param ingress the ingress queue: poll it and hand its messages to the entry point as SQS
   *     events, as Lambda's event source mapping would
   * @param deadLetters messages that kept failing
   * @param wakeUps the wake-ups of delayed messages, each hidden until its timer is due: poll it as
   *     the ingress queue
   * @param greets the greeter's egress
   * @param orders the shop's orders
   * @param entryPoint the one entry point over all of it
   */
  public record InMemory(
      StatefulFunctions functions,
      InMemoryFunctionStore store,
      InMemoryMessageBus ingress,
      InMemoryMessageBus deadLetters,
      InMemoryStandardQueue wakeUps,
      CollectingEgressSink greets,
      CollectingEgressSink orders,
      EntryPoint entryPoint) {}

  /** The carts' hold time from {@code variables}. */
  public static Duration hold(Variables variables) {
    return seconds(variables, HOLD_SECONDS, Cart.DEFAULT_HOLD);
  }

  private static Duration seconds(Variables variables, String name, Duration otherwise) {
    String seconds = variables.optional(name).orElse(null);
    if (seconds == null) {
      return otherwise;
    }
    try {
      long value = Long.parseLong(seconds.trim());
      if (value > 0) {
        return Duration.ofSeconds(value);
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalStateException(
        name
            + " is a number of seconds above 0, such as "
            + otherwise.toSeconds()
            + ", not '"
            + seconds
            + "'");
  }
}
