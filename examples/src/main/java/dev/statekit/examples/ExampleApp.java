package dev.statekit.examples;

import dev.statekit.application.Application;
import dev.statekit.application.InMemoryApplication;
import dev.statekit.application.Settings;
import dev.statekit.application.StateKitApplication;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.EgressSink;
import dev.statekit.examples.fraud.Card;
import dev.statekit.examples.fraud.FraudCheck;
import dev.statekit.examples.greeter.Audit;
import dev.statekit.examples.greeter.Greeter;
import dev.statekit.examples.greeter.Reminder;
import dev.statekit.examples.shop.Cart;
import dev.statekit.examples.shop.Inventory;
import dev.statekit.examples.shop.ShopMessages;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.Variables;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * Every example as one application: the greeter family, the shop (carts and inventory) and the
 * fraud check, served to StateFun runtimes and run by StateKit's own runtime (state in the
 * application table, messages over the ingress queue, delayed messages swept every minute). The
 * fraud check's pipeline reads the transactions stream's Kinesis batches (its state and checkpoints
 * in the same table, its tick beside the timer sweep) and applies its alerts to the {@code
 * fraud/card} functions through the runtime. Greetings and orders go to their queues; the other
 * egresses to the log.
 *
 * <p>{@code template.yaml} names this class with {@code STATEKIT_APPLICATION}; its functions run
 * {@link dev.statekit.handlers.ApplicationHandler} (the event sources and the function URL) and
 * {@link dev.statekit.handlers.ApplicationIngressHandler} (producers' direct invokes).
 */
public final class ExampleApp implements StateKitApplication {
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

  /** The name of the fraud check's tick among the scheduled tasks. */
  public static final String FRAUD_TICK = Application.tickTask(FraudCheck.NAME);

  /** The declaration, built once. */
  public static final Application APPLICATION = declare();

  /** For {@code STATEKIT_APPLICATION}: the declaration. */
  public ExampleApp() {}

  @Override
  public Application application() {
    return APPLICATION;
  }

  private static Application declare() {
    Application.Builder app =
        Application.builder("examples")
            .functions(variables -> functions(hold(variables)))
            .egress(Greeter.GREETS, GREETS_QUEUE_URL, "the greeter's egress queue")
            .egress(ShopMessages.ORDERS, ORDERS_QUEUE_URL, "the shop's orders queue")
            .pipeline(
                FraudCheck.NAME,
                TRANSACTIONS_STREAM,
                wiring ->
                    ExamplePipelines.fraudCheck(
                        wiring.store(),
                        wiring.runtime(),
                        Settings.seconds(
                            wiring.variables(), FRAUD_IDLE_SECONDS, FraudCheck.IDLE_TIMEOUT),
                        wiring.batchTimeout(),
                        wiring.clock()))
            // Locally one process runs every batch: a shard silent for 2 s no longer holds the
            // fraud check's windows back, so a replay's windows fire within seconds.
            .localSetting(FRAUD_IDLE_SECONDS, "2")
            // The fraud check's window results, as they fire.
            .activityLog("dev.statekit.examples.fraud", "fraud-check")
            .scenario(new ExampleDemo());
    for (String payload : primingPayloads()) {
      app.priming(payload);
    }
    return app.build();
  }

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
   * The examples with nothing but the JDK ({@link Application#inMemory}).
   *
   * @param hold how long carts hold reservations
   * @param idle how long a shard may be silent before the fraud check's windows fire without it
   * @param clock the clock of expiry, delays, queue visibility and idle shards
   */
  public static InMemoryApplication inMemory(Duration hold, Duration idle, Clock clock) {
    return APPLICATION.inMemory(
        Variables.of(
            Map.of(
                HOLD_SECONDS,
                Long.toString(hold.toSeconds()),
                FRAUD_IDLE_SECONDS,
                Long.toString(idle.toSeconds()))),
        clock);
  }

  /** The carts' hold time from {@code variables}. */
  public static Duration hold(Variables variables) {
    return Settings.seconds(variables, HOLD_SECONDS, Cart.DEFAULT_HOLD);
  }

  private static String[] primingPayloads() {
    return new String[] {
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
  }
}
