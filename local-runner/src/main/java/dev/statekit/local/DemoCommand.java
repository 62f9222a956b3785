package dev.statekit.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.examples.ExampleApp;
import dev.statekit.examples.fraud.Card;
import dev.statekit.examples.fraud.FraudCheck;
import dev.statekit.function.Address;
import dev.statekit.local.emulation.Activity;
import dev.statekit.local.template.Template;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Runs every example end to end and shows what happened. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Runs every example end to end on the embedded servers (or --localstack, --aws,"
            + " --in-memory): creates the template's resources, drives the greeter family, the"
            + " shopping cart and the fraud check through the one entry point with Lambda's event"
            + " sources emulated, and prints messages, state, window results and a summary.")
final class DemoCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Spec CommandSpec spec;
  @Mixin BackendOptions options;

  @Option(
      names = "--hold-seconds",
      defaultValue = "5",
      description = "How long carts hold reservations in the demo (default: ${DEFAULT-VALUE}).")
  int holdSeconds;

  @Option(
      names = "--wait-seconds",
      defaultValue = "60",
      description =
          "The longest wait for the queue to drain at each step (default: ${DEFAULT-VALUE}).")
  int waitSeconds;

  private PrintWriter out;
  private LocalApp app;
  private LocalFunction function;
  private final AtomicInteger directInvokes = new AtomicInteger();

  @Override
  public Integer call() throws Exception {
    out = spec.commandLine().getOut();
    long started = System.nanoTime();
    out.println("StateKit demo: every example through the one entry point");
    Backend backend = options.backend();
    if (backend.mode() == Backend.Mode.EMBEDDED) {
      out.println("[1/6] Servers (installed with npm on first use into ~/.statekit/servers):");
    } else {
      out.println("[1/6] Backend:");
    }
    out.println("      " + backend.describe());
    Template template = options.template();
    out.println("[2/6] Resources from " + template.source() + ":");
    app = LocalApp.open(backend, template, options.prefix, Duration.ofSeconds(holdSeconds), out);
    function = app.function(app.urlFunction());
    Activity activity = new Activity(out);
    EgressLog.showOn(activity);
    out.println(
        "[3/6] "
            + function.name()
            + " ("
            + function.definition().handlerClass()
            + ") with its event sources emulated:");
    app.startEventSources(activity, Duration.ofSeconds(1), 1)
        .forEach(line -> out.println("      " + line));
    try {
      greeters();
      shop();
      int alerts = fraudCheck();
      summary(started, alerts);
    } finally {
      app.close();
    }
    return 0;
  }

  private void greeters() throws Exception {
    out.println(
        "[4/6] The greeter family: greetings counted per id, an audit total, reminders as delayed messages");
    send("example/greeter/Ada", null, "hi");
    send("example/greeter/Ada", null, "hello again");
    send("example/greeter/Grace", null, "hi");
    send("example/reminder/r1", null, "set:1500:tea");
    send("example/reminder/r1", null, "set:60000:coffee");
    send("example/reminder/r1", null, "cancel:coffee");
    awaitIdle();
    Thread.sleep(2_500); // the tea reminder is due after 1.5 s; the next ticks send it
    awaitIdle();
    app.takeGreetings().forEach(g -> out.println("      greeting: " + g));
    state("example/greeter/Ada");
    state("example/audit/all");
  }

  private void shop() throws Exception {
    out.println(
        "[5/6] The shop: carts reserve stock, holds run out after "
            + holdSeconds
            + " s unless checkout cancels them");
    send("shop/inventory/book", "shop/restock", "{\"quantity\": 3}");
    send("shop/cart/ada", "shop/add-item", "{\"sku\": \"book\", \"quantity\": 2}");
    awaitIdle();
    send("shop/cart/bob", "shop/add-item", "{\"sku\": \"book\", \"quantity\": 2}");
    awaitIdle();
    send("shop/cart/ada", "shop/checkout", "{\"orderId\": \"order-1\"}");
    send("shop/cart/bob", "shop/add-item", "{\"sku\": \"book\", \"quantity\": 1}");
    awaitIdle();
    out.println("      (bob never checks out: waiting for his hold to run out)");
    Thread.sleep(holdSeconds * 1000L + 1_500);
    awaitIdle();
    app.takeOrders().forEach(o -> out.println("      order: " + o));
    state("shop/inventory/book");
    state("shop/cart/bob");
    out.println(
        "      (eve adds nothing: the cart refuses it on every attempt, then it is dead-lettered)");
    enqueue("shop/cart/eve", "shop/add-item", "{\"sku\": \"book\", \"quantity\": 0}");
    awaitIdle();
    app.takeDeadLetters().forEach(d -> out.println("      dead letter: " + d));
  }

  private int fraudCheck() throws Exception {
    out.println(
        "[6/6] The fraud check: transactions keyed by card, sliding windows of 10 minutes every"
            + " minute, run by "
            + function.name()
            + " batch by batch");
    // Whole hours, so the windows (and the window results shown) are the same every run.
    long start =
        Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1)).toEpochMilli();
    List<byte[]> transactions = DemoData.transactions(start);
    out.println("      " + app.feedTransactions(transactions));
    // The batch that holds the last transaction moves event time past every window before it.
    long watermark =
        PipelineTicks.until(
            function::invoke,
            ExampleApp.FRAUD_TICK,
            start + DemoData.LAST - FraudCheck.OUT_OF_ORDER.toMillis() - 1,
            Duration.ofSeconds(waitSeconds));
    awaitIdle();
    int alerts = 0;
    for (String card : DemoData.cards()) {
      JsonNode block = values("fraud/card/" + card).path(Card.BLOCK.name()).path("value");
      alerts += block.path("alerts").asInt(0);
    }
    for (String card :
        List.of(DemoData.BURST, DemoData.TRAVEL, DemoData.SPENDER, DemoData.ORDINARY)) {
      state("fraud/card/" + card);
    }
    out.println(
        "      "
            + transactions.size()
            + " transactions through the pipeline (event time now "
            + minute(watermark)
            + "), "
            + alerts
            + " alerts applied to fraud/card functions");
    return alerts;
  }

  private void summary(long started, int alerts) {
    out.println(
        "Done in "
            + Duration.ofNanos(System.nanoTime() - started).toSeconds()
            + " s: "
            + directInvokes.get()
            + " direct invokes of "
            + function.name()
            + ", "
            + function.invocations()
            + " invocations in all (the rest by the emulated queue, stream and schedule); "
            + alerts
            + " alerts from the fraud check.");
    out.println(
        "Next: java -jar local-runner/target/statekit-local-runner.jar serve, then send, state, replay (see the README).");
    out.flush();
  }

  private void send(String address, String type, String value) {
    Address target = new AddressArgument().convert(address);
    out.println("    > send " + address + " " + (type == null ? "" : type + " ") + value);
    invoke(Envelopes.ofText(target, type, value, null));
  }

  private void enqueue(String address, String type, String value) {
    Address target = new AddressArgument().convert(address);
    out.println("    > queue " + address + " " + type + " " + value);
    app.enqueue(target, Envelopes.ofText(target, type, value, null));
  }

  private void invoke(byte[] envelope) {
    directInvokes.incrementAndGet();
    byte[] answer = function.invoke(envelope);
    JsonNode node = read(answer);
    if (node == null || !"applied".equals(node.path("status").asText())) {
      out.println("      answer: " + new String(answer, StandardCharsets.UTF_8));
    }
  }

  private JsonNode values(String address) {
    return read(app.stateView().json(address).getBytes(StandardCharsets.UTF_8)).path("values");
  }

  private void state(String address) {
    JsonNode values = values(address);
    StringBuilder line = new StringBuilder("      state of " + address + ":");
    if (values.isEmpty()) {
      line.append(" (none)");
    }
    values
        .fields()
        .forEachRemaining(
            v ->
                line.append(" ").append(v.getKey()).append("=").append(v.getValue().path("value")));
    out.println(line);
  }

  /** Waits until the ingress queue stays empty for a moment: every message has been handled. */
  private void awaitIdle() throws InterruptedException {
    long deadline = System.currentTimeMillis() + waitSeconds * 1000L;
    int quiet = 0;
    while (quiet < 3) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(
            "The ingress queue did not drain in "
                + waitSeconds
                + " s; "
                + app.pendingMessages()
                + " messages left");
      }
      quiet = app.pendingMessages() == 0 ? quiet + 1 : 0;
      Thread.sleep(200);
    }
  }

  private static JsonNode read(byte[] json) {
    try {
      return JSON.readTree(json);
    } catch (java.io.IOException e) {
      return null;
    }
  }

  private static String minute(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).toString().substring(11, 16);
  }
}
