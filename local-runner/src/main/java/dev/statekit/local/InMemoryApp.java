package dev.statekit.local;

import dev.statekit.entry.internal.EventWriter;
import dev.statekit.examples.ExampleApp;
import dev.statekit.examples.ExampleAppHandler;
import dev.statekit.local.emulation.Activity;
import dev.statekit.local.emulation.InMemoryQueuePoller;
import dev.statekit.local.emulation.ScheduleTicker;
import dev.statekit.local.template.FunctionDef;
import dev.statekit.local.template.Template;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The examples with nothing but the JDK: the application function runs the in-memory wiring of
 * {@link ExampleApp}, its ingress queue is polled in memory and its schedule fires; there is no
 * stream: transactions reach the function as the Kinesis events the stream's event source mapping
 * would make of them.
 */
final class InMemoryApp implements LocalApp {
  private static final String NAME = "AppFunction";
  private static final String STREAM = "transactions";

  private final ExampleApp.InMemory app;
  private final LocalFunction function;
  private final List<Runnable> stoppers = new ArrayList<>();
  private final List<ScheduleTicker> tickers = new ArrayList<>();
  private int greetingsTaken;
  private int ordersTaken;
  private int deadLettersTaken;

  InMemoryApp(Template template, Duration hold, Duration pipelineIdle) {
    this.app = ExampleApp.inMemory(hold, pipelineIdle, Clock.systemUTC());
    FunctionDef definition =
        template.functions().stream()
            .filter(f -> f.handlerClass().equals(ExampleAppHandler.class.getName()))
            .findFirst()
            .orElse(
                new FunctionDef(
                    NAME,
                    ExampleAppHandler.class.getName() + "::handleRequest",
                    Map.of(),
                    List.of(),
                    null,
                    false,
                    1769,
                    30));
    this.function = new LocalFunction(definition, new ExampleAppHandler(app.entryPoint()));
  }

  @Override
  public String describe() {
    return Backend.inMemory().describe();
  }

  @Override
  public LocalFunction function(String name) {
    return name.equals(function.name()) ? function : null;
  }

  @Override
  public List<String> functionNames() {
    return List.of(function.name());
  }

  @Override
  public String urlFunction() {
    return function.name();
  }

  @Override
  public List<String> startEventSources(Activity activity, Duration tick, int retryAfterSeconds) {
    String label = function.name() + ".Ingress";
    InMemoryQueuePoller poller =
        new InMemoryQueuePoller(
            label, app.ingress(), function::invoke, activity, retryAfterSeconds);
    start(label, poller, poller::stop);
    String wakeUpLabel = function.name() + ".WakeUps";
    InMemoryQueuePoller wakeUps =
        new InMemoryQueuePoller(
            wakeUpLabel, app.wakeUps(), function::invoke, activity, retryAfterSeconds);
    start(wakeUpLabel, wakeUps, wakeUps::stop);
    Duration period = tick == null ? Duration.ofMinutes(1) : tick;
    ScheduleTicker ticker =
        new ScheduleTicker(
            function.name() + ".Tick",
            "statekit-tick",
            period,
            "us-east-1",
            function::invoke,
            activity);
    tickers.add(ticker);
    start(function.name() + ".Tick", ticker, ticker::stop);
    return List.of(
        label + ": polls the in-memory ingress queue",
        wakeUpLabel + ": polls the in-memory wake-up queue (delayed messages, on time)",
        function.name() + ".Tick: fires every " + period.toSeconds() + " s");
  }

  private void start(String label, Runnable loop, Runnable stop) {
    Thread thread = new Thread(loop, "statekit-" + label);
    thread.setDaemon(true);
    thread.start();
    stoppers.add(stop);
  }

  @Override
  public List<ScheduleTicker> tickers() {
    return tickers;
  }

  @Override
  public void enqueue(dev.statekit.function.Address target, byte[] envelope) {
    app.ingress()
        .send(
            List.of(
                new dev.statekit.runtime.bus.BusMessage(
                    dev.statekit.runtime.Ingress.groupId(target),
                    java.util.UUID.randomUUID().toString(),
                    new String(envelope, java.nio.charset.StandardCharsets.UTF_8))));
  }

  @Override
  public int pendingMessages() {
    return app.ingress().size();
  }

  @Override
  public synchronized List<String> takeGreetings() {
    List<String> all = app.greets().texts();
    List<String> fresh = all.subList(greetingsTaken, all.size());
    greetingsTaken = all.size();
    return List.copyOf(fresh);
  }

  @Override
  public synchronized List<String> takeOrders() {
    List<String> all = app.orders().texts();
    List<String> fresh = all.subList(ordersTaken, all.size());
    ordersTaken = all.size();
    return List.copyOf(fresh);
  }

  @Override
  public synchronized List<String> takeDeadLetters() {
    List<String> all = new ArrayList<>();
    app.deadLetters().peekAll().forEach(m -> all.add(DeadLetterLine.of(m.body(), m.attributes())));
    List<String> fresh = all.subList(deadLettersTaken, all.size());
    deadLettersTaken = all.size();
    return List.copyOf(fresh);
  }

  @Override
  public StateView stateView() {
    return new StateView(app.functions(), app.store());
  }

  @Override
  public String feedTransactions(List<byte[]> records) {
    List<byte[]> events = KinesisFeed.events(records, STREAM, "shardId-000000000000");
    for (byte[] event : events) {
      List<String> failed = EventWriter.batchItemFailures(function.invoke(event));
      if (failed != null && !failed.isEmpty()) {
        throw new IllegalStateException(
            "The fraud check failed on the transactions from sequence number " + failed.get(0));
      }
    }
    return records.size()
        + " transactions handed to "
        + function.name()
        + " as "
        + events.size()
        + " Kinesis event(s) of "
        + STREAM
        + "/shardId-000000000000 (in memory there is no stream)";
  }

  @Override
  public void close() {
    stoppers.forEach(Runnable::run);
  }
}
