package dev.statekit.local;

import dev.statekit.application.Application;
import dev.statekit.application.InMemoryApplication;
import dev.statekit.application.PipelineDeclaration;
import dev.statekit.aws.events.EventWriter;
import dev.statekit.bus.BusMessage;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.function.Address;
import dev.statekit.handlers.StateKitHandler;
import dev.statekit.handlers.Variables;
import dev.statekit.local.emulation.Activity;
import dev.statekit.local.emulation.InMemoryQueuePoller;
import dev.statekit.local.emulation.ScheduleTicker;
import dev.statekit.local.template.FunctionDef;
import dev.statekit.local.template.Template;
import dev.statekit.runtime.Ingress;
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
import java.util.UUID;

/**
 * The application with nothing but the JDK: its application function runs the in-memory wiring of
 * the declaration the template names ({@link Application#inMemory}), its ingress queue is polled in
 * memory and its schedule fires; there are no streams: records reach the function as the Kinesis
 * events a stream's event source mapping would make of them.
 *
 * <p>The application's settings are the template's plain values for that function (references to
 * resources have nothing to name in memory), then the application's local settings, then the
 * caller's.
 */
final class InMemoryApp implements LocalApp {
  private final Application application;
  private final InMemoryApplication app;
  private final LocalFunction function;
  private final Map<String, String> variables;
  private final List<Runnable> stoppers = new ArrayList<>();
  private final List<ScheduleTicker> tickers = new ArrayList<>();
  private final Map<TypeName, Integer> egressTaken = new HashMap<>();
  private int deadLettersTaken;
  private final Map<String, Long> fed = new HashMap<>();
  private final InvocationLog invocations = new InvocationLog();

  InMemoryApp(Template template, Map<String, String> settings) {
    FunctionDef definition =
        ApplicationCode.applicationFunction(template)
            .orElseThrow(() -> new IllegalStateException(noApplication(template)));
    this.application = ApplicationCode.application(template, definition);
    Map<String, String> values = new LinkedHashMap<>();
    definition
        .environment()
        .forEach(
            (name, value) -> {
              if (value.isValueNode()) {
                values.put(name, value.asText());
              }
            });
    values.putAll(application.localSettings());
    values.putAll(settings);
    this.variables = Map.copyOf(values);
    this.app = application.inMemory(Variables.of(variables), Clock.systemUTC(), invocations);
    invocations.decodeWith(app::functions);
    this.function = new LocalFunction(definition, new StateKitHandler(app.entryPoint()));
  }

  private static String noApplication(Template template) {
    return "No function of "
        + template.source()
        + " sets "
        + Application.VARIABLE
        + ": --in-memory runs the application's declaration (its StateKitApplication class)";
  }

  @Override
  public Application application() {
    return application;
  }

  @Override
  public LocalFunction applicationFunction() {
    return function;
  }

  @Override
  public Optional<String> setting(String variable) {
    return Optional.ofNullable(variables.get(variable));
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
  public void enqueue(Address target, byte[] envelope) {
    app.ingress()
        .send(
            List.of(
                new BusMessage(
                    Ingress.groupId(target),
                    UUID.randomUUID().toString(),
                    new String(envelope, StandardCharsets.UTF_8))));
  }

  @Override
  public int pendingMessages() {
    return app.ingress().size();
  }

  @Override
  public synchronized List<String> takeEgress(TypeName egress) {
    CollectingEgressSink sink = app.egress().get(egress);
    if (sink == null) {
      throw new IllegalArgumentException(
          application.name()
              + " sends no egress "
              + egress
              + " to a queue; it declares "
              + app.egress().keySet());
    }
    List<String> all = sink.texts();
    int taken = egressTaken.getOrDefault(egress, 0);
    egressTaken.put(egress, all.size());
    return List.copyOf(all.subList(taken, all.size()));
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
  public String feed(String pipeline, List<byte[]> records) {
    PipelineDeclaration declared =
        application
            .pipeline(pipeline)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "There is no pipeline '"
                            + pipeline
                            + "'; choose one of "
                            + application.pipelineNames()));
    String stream = variables.getOrDefault(declared.streamVariable(), pipeline);
    String shard = "shardId-000000000000";
    // Each feed's records come after the last feed's on the shard, as on a stream: numbered from 1
    // again, they were taken for repeats of the first feed's and dropped.
    long before;
    synchronized (this) {
      before = fed.getOrDefault(stream, 0L);
      fed.put(stream, before + records.size());
    }
    List<KinesisFeed.Event> events = KinesisFeed.events(records, stream, shard, before);
    for (KinesisFeed.Event event : events) {
      List<String> failed = EventWriter.batchItemFailures(function.invoke(event.payload()));
      if (failed != null && !failed.isEmpty()) {
        throw new IllegalStateException(
            pipeline + " failed on the records from sequence number " + failed.get(0));
      }
    }
    return records.size()
        + " records handed to "
        + function.name()
        + " as "
        + events.size()
        + " Kinesis event(s) of "
        + stream
        + "/"
        + shard
        + " (in memory there is no stream)";
  }

  @Override
  public ConsoleData console() {
    return new InMemoryConsole(application, app, invocations, describe());
  }

  @Override
  public void close() {
    stoppers.forEach(Runnable::run);
  }
}
