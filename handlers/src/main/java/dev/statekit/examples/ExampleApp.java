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
import dev.statekit.examples.greeter.Audit;
import dev.statekit.examples.greeter.Greeter;
import dev.statekit.examples.greeter.Reminder;
import dev.statekit.examples.shop.Cart;
import dev.statekit.examples.shop.Inventory;
import dev.statekit.examples.shop.ShopMessages;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.RuntimeEnvironment;
import dev.statekit.handlers.Variables;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.bus.InMemoryMessageBus;
import dev.statekit.runtime.bus.SqsMessageBus;
import dev.statekit.runtime.store.DynamoDbFunctionStore;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import java.time.Clock;
import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Every example behind one entry point: the greeter family, the shop (carts and inventory) and the
 * card-blocking function of the fraud check, served to StateFun runtimes and run by StateKit's own
 * runtime (state in the application table, messages over the ingress queue, delayed messages swept
 * every minute). Greetings and orders go to their queues; the other egresses to the log.
 */
public final class ExampleApp {
  /** The greeter's egress queue. */
  public static final String GREETS_QUEUE_URL = "GREETS_QUEUE_URL";

  /** The shop's orders queue. */
  public static final String ORDERS_QUEUE_URL = "ORDERS_QUEUE_URL";

  /** The carts' hold time in seconds (optional, default 900). */
  public static final String HOLD_SECONDS = "STATEKIT_HOLD_SECONDS";

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

  /** The entry point of the examples, wired from {@code variables} as on Lambda. */
  public static EntryPoint entryPoint(Variables variables) {
    AwsConfig aws = variables.aws();
    SqsClient sqs = aws.sqsClient();
    StatefulFunctions functions = functions(hold(variables));
    String table = variables.required(RuntimeEnvironment.TABLE, "the application's DynamoDB table");
    String queue = variables.required(RuntimeEnvironment.QUEUE_URL, "the ingress FIFO queue");
    String deadLetters =
        variables.required(RuntimeEnvironment.DEAD_LETTER_QUEUE_URL, "the dead-letter FIFO queue");
    EgressRoutes egress =
        egress(
            new SqsEgressSink(
                sqs, variables.required(GREETS_QUEUE_URL, "the greeter's egress queue")),
            new SqsEgressSink(sqs, variables.required(ORDERS_QUEUE_URL, "the shop's orders queue")),
            new LoggingSink());
    FunctionRuntime runtime =
        runtime(functions, aws.dynamoDbClient(), sqs, table, queue, deadLetters, egress);
    return EntryPoint.builder()
        .functions(functions)
        .runtime(runtime)
        .primer(() -> prime(functions, table, queue, deadLetters))
        .build();
  }

  private static FunctionRuntime runtime(
      StatefulFunctions functions,
      DynamoDbClient dynamoDb,
      SqsClient sqs,
      String table,
      String queue,
      String deadLetters,
      EgressRoutes egress) {
    return FunctionRuntime.builder(functions)
        .store(new DynamoDbFunctionStore(dynamoDb, table))
        .queue(new SqsMessageBus(sqs, queue))
        .deadLetters(new SqsMessageBus(sqs, deadLetters))
        .egress(egress)
        .build();
  }

  /**
   * Runs a direct invoke, a queue batch and a sweep through a copy of the application wired to
   * offline clients ({@link Priming}): before a SnapStart snapshot, this loads the code of a real
   * invocation (the runtime, the SDK's request path) without a connection or a real write.
   */
  private static void prime(
      StatefulFunctions functions, String table, String queue, String deadLetters) {
    FunctionRuntime offline =
        runtime(
            functions,
            Priming.dynamoDbClient(),
            Priming.sqsClient(),
            table,
            queue,
            deadLetters,
            EgressRoutes.builder().otherwise(records -> {}).build());
    EntryPoint copy = EntryPoint.builder().functions(functions).runtime(offline).build();
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
        + "\"time\":\"2024-01-01T00:00:00Z\",\"resources\":[],\"detail\":{}}"
  };

  /**
   * The examples with nothing but the JDK: state and timers in memory, the ingress and dead-letter
   * queues in memory, greetings and orders collected, the other egresses logged.
   *
   * @param clock the clock of expiry, delays and queue visibility
   */
  public static InMemory inMemory(Duration hold, Clock clock) {
    StatefulFunctions functions = functions(hold);
    InMemoryFunctionStore store = new InMemoryFunctionStore();
    InMemoryMessageBus ingress = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    InMemoryMessageBus deadLetters = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    CollectingEgressSink greets = new CollectingEgressSink();
    CollectingEgressSink orders = new CollectingEgressSink();
    FunctionRuntime runtime =
        FunctionRuntime.builder(functions)
            .store(store)
            .queue(ingress)
            .deadLetters(deadLetters)
            .egress(egress(greets, orders, new LoggingSink()))
            .clock(clock)
            .build();
    EntryPoint entryPoint = EntryPoint.builder().functions(functions).runtime(runtime).build();
    return new InMemory(functions, store, ingress, deadLetters, greets, orders, entryPoint);
  }

  /**
   * The examples wired in memory.
   *
   * @param functions the registry
   * @param store state and timers
   * @param ingress the ingress queue: poll it and hand its messages to the entry point as SQS
   *     events, as Lambda's event source mapping would
   * @param deadLetters messages that kept failing
   * @param greets the greeter's egress
   * @param orders the shop's orders
   * @param entryPoint the one entry point over all of it
   */
  public record InMemory(
      StatefulFunctions functions,
      InMemoryFunctionStore store,
      InMemoryMessageBus ingress,
      InMemoryMessageBus deadLetters,
      CollectingEgressSink greets,
      CollectingEgressSink orders,
      EntryPoint entryPoint) {}

  /** The carts' hold time from {@code variables}. */
  public static Duration hold(Variables variables) {
    String seconds = variables.optional(HOLD_SECONDS).orElse(null);
    if (seconds == null) {
      return Cart.DEFAULT_HOLD;
    }
    try {
      return Duration.ofSeconds(Long.parseLong(seconds.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          HOLD_SECONDS + " is a number of seconds, such as 900, not '" + seconds + "'", e);
    }
  }
}
