package dev.statekit.examples;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.application.Scenario;
import dev.statekit.application.ScenarioContext;
import dev.statekit.examples.fraud.Card;
import dev.statekit.examples.fraud.FraudCheck;
import dev.statekit.examples.greeter.Greeter;
import dev.statekit.examples.shop.ShopMessages;
import dev.statekit.json.BoundedJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * The local runner's {@code demo} of the examples: the greeter family, the shop (a hold running
 * out, a message dead-lettered) and the fraud check over about 80 transactions.
 */
final class ExampleDemo implements Scenario {
  /** The demo's hold time: short, so a hold runs out while one watches. */
  static final int HOLD_SECONDS = 5;

  @Override
  public String title() {
    return "every example through the one entry point";
  }

  @Override
  public int steps() {
    return 3;
  }

  @Override
  public Map<String, String> settings() {
    return Map.of(ExampleApp.HOLD_SECONDS, Integer.toString(HOLD_SECONDS));
  }

  @Override
  public String run(ScenarioContext context) throws Exception {
    greeters(context);
    shop(context);
    int alerts = fraudCheck(context);
    return alerts + " alerts from the fraud check.";
  }

  private static void greeters(ScenarioContext context) throws Exception {
    context.step(
        "The greeter family: greetings counted per id, an audit total, reminders as delayed messages");
    context.send("example/greeter/Ada", null, "hi");
    context.send("example/greeter/Ada", null, "hello again");
    context.send("example/greeter/Grace", null, "hi");
    context.send("example/reminder/r1", null, "set:1500:tea");
    context.send("example/reminder/r1", null, "set:60000:coffee");
    context.send("example/reminder/r1", null, "cancel:coffee");
    context.awaitIdle();
    Thread.sleep(2_500); // the tea reminder is due after 1.5 s; the next ticks send it
    context.awaitIdle();
    context.takeEgress(Greeter.GREETS).forEach(g -> context.say("greeting: " + g));
    context.showState("example/greeter/Ada");
    context.showState("example/audit/all");
  }

  private static void shop(ScenarioContext context) throws Exception {
    long hold =
        context.setting(ExampleApp.HOLD_SECONDS).map(Long::parseLong).orElse((long) HOLD_SECONDS);
    context.step(
        "The shop: carts reserve stock, holds run out after "
            + hold
            + " s unless checkout cancels them");
    context.send("shop/inventory/book", "shop/restock", "{\"quantity\": 3}");
    context.send("shop/cart/ada", "shop/add-item", "{\"sku\": \"book\", \"quantity\": 2}");
    context.awaitIdle();
    context.send("shop/cart/bob", "shop/add-item", "{\"sku\": \"book\", \"quantity\": 2}");
    context.awaitIdle();
    context.send("shop/cart/ada", "shop/checkout", "{\"orderId\": \"order-1\"}");
    context.send("shop/cart/bob", "shop/add-item", "{\"sku\": \"book\", \"quantity\": 1}");
    context.awaitIdle();
    context.say("(bob never checks out: waiting for his hold to run out)");
    Thread.sleep(hold * 1000L + 1_500);
    context.awaitIdle();
    context.takeEgress(ShopMessages.ORDERS).forEach(o -> context.say("order: " + o));
    context.showState("shop/inventory/book");
    context.showState("shop/cart/bob");
    context.say(
        "(eve adds nothing: the cart refuses it on every attempt, then it is dead-lettered)");
    context.enqueue("shop/cart/eve", "shop/add-item", "{\"sku\": \"book\", \"quantity\": 0}");
    context.awaitIdle();
    context.takeDeadLetters().forEach(d -> context.say("dead letter: " + d));
  }

  private static int fraudCheck(ScenarioContext context) throws Exception {
    context.step(
        "The fraud check: transactions keyed by card, sliding windows of 10 minutes every"
            + " minute, run batch by batch");
    // Whole hours, so the windows (and the window results shown) are the same every run.
    long start =
        Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1)).toEpochMilli();
    List<byte[]> transactions = DemoData.transactions(start);
    context.say(context.feed(FraudCheck.NAME, transactions));
    // The batch that holds the last transaction moves event time past every window before it.
    long watermark =
        context.tickUntil(
            FraudCheck.NAME,
            start + DemoData.LAST - FraudCheck.OUT_OF_ORDER.toMillis() - 1,
            Duration.ofSeconds(60));
    context.awaitIdle();
    int alerts = 0;
    for (String card : DemoData.cards()) {
      JsonNode block = values(context, "fraud/card/" + card).path(Card.BLOCK.name()).path("value");
      alerts += block.path("alerts").asInt(0);
    }
    for (String card :
        List.of(DemoData.BURST, DemoData.TRAVEL, DemoData.SPENDER, DemoData.ORDINARY)) {
      context.showState("fraud/card/" + card);
    }
    context.say(
        transactions.size()
            + " transactions through the pipeline (event time now "
            + Instant.ofEpochMilli(watermark).toString().substring(11, 16)
            + "), "
            + alerts
            + " alerts applied to fraud/card functions");
    return alerts;
  }

  private static JsonNode values(ScenarioContext context, String address) throws IOException {
    // Read with the streaming parser: the handler's constructor declares this scenario, and a
    // mapper built here would cost every cold start about 170 ms of class loading.
    return BoundedJson.read(context.stateJson(address).getBytes(StandardCharsets.UTF_8))
        .path("values");
  }
}
