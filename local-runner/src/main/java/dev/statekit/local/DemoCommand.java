package dev.statekit.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.application.Application;
import dev.statekit.application.Scenario;
import dev.statekit.application.ScenarioContext;
import dev.statekit.function.Address;
import dev.statekit.local.emulation.Activity;
import dev.statekit.local.template.Template;
import dev.statekit.types.TypeName;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Plays the application's declared scenario end to end and shows what happened. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Plays the scenario the application declares, end to end, on the embedded servers (or"
            + " --localstack, --aws, --in-memory): creates the template's resources, starts the"
            + " application function with Lambda's event sources emulated, and prints the messages"
            + " sent, egress records, state and a summary.")
final class DemoCommand implements Callable<Integer>, ScenarioContext {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Spec CommandSpec spec;
  @Mixin BackendOptions options;

  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description =
          "Sets a variable of the application instead of the template's and the scenario's"
              + " (repeatable).")
  Map<String, String> set = new LinkedHashMap<>();

  @Option(
      names = "--wait-seconds",
      defaultValue = "60",
      description =
          "The longest wait for the queue to drain at each step (default: ${DEFAULT-VALUE}).")
  int waitSeconds;

  private PrintWriter out;
  private LocalApp app;
  private LocalFunction function;
  private Activity activity;
  private int step;
  private int steps;
  private final AtomicInteger directInvokes = new AtomicInteger();

  @Override
  public Integer call() throws Exception {
    out = spec.commandLine().getOut();
    long started = System.nanoTime();
    Template template = options.template();
    Application application = LocalApp.declared(template);
    Scenario scenario =
        application
            .scenario()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        application.name()
                            + " declares no scenario for demo: run serve, then send, invoke,"
                            + " state and replay against it"));
    steps = 3 + scenario.steps();
    out.println("StateKit demo of " + application.name() + ": " + scenario.title());
    Backend backend = options.backend();
    if (backend.mode() == Backend.Mode.EMBEDDED) {
      step("Servers (installed with npm on first use into ~/.statekit/servers):");
    } else {
      step("Backend:");
    }
    say(backend.describe());
    step("Resources from " + template.source() + ":");
    Map<String, String> settings = new LinkedHashMap<>(scenario.settings());
    settings.putAll(set);
    app = LocalApp.open(backend, template, options.prefix, settings, out);
    function = app.applicationFunction();
    activity = new Activity(out);
    EgressLog.showOn(activity, application);
    step(
        function.name()
            + " ("
            + function.definition().handlerClass()
            + ") with its event sources emulated:");
    app.startEventSources(activity, Duration.ofSeconds(1), 1).forEach(this::say);
    String summary;
    try {
      summary = scenario.run(this);
    } finally {
      app.close();
    }
    out.println(
        "Done in "
            + Duration.ofNanos(System.nanoTime() - started).toSeconds()
            + " s: "
            + directInvokes.get()
            + " direct invokes of "
            + function.name()
            + ", "
            + function.invocations()
            + " invocations in all (the rest by the emulated queue, stream and schedule)"
            + (summary == null || summary.isBlank() ? "." : "; " + summary));
    out.println(
        "Next: java -jar statekit-local-runner.jar serve, then send, state, replay (see the"
            + " README).");
    out.flush();
    return 0;
  }

  @Override
  public void step(String title) {
    step++;
    out.println("[" + step + "/" + steps + "] " + title);
  }

  @Override
  public void say(String line) {
    out.println("      " + line);
  }

  @Override
  public void send(String address, String type, String value) {
    Address target = new AddressArgument().convert(address);
    out.println("    > send " + address + " " + (type == null ? "" : type + " ") + value);
    directInvokes.incrementAndGet();
    byte[] answer = function.invoke(Envelopes.ofText(target, type, value, null));
    JsonNode node = read(answer);
    if (node == null || !"applied".equals(node.path("status").asText())) {
      say("answer: " + new String(answer, StandardCharsets.UTF_8));
    }
  }

  @Override
  public void enqueue(String address, String type, String value) {
    Address target = new AddressArgument().convert(address);
    out.println("    > queue " + address + " " + (type == null ? "" : type + " ") + value);
    app.enqueue(target, Envelopes.ofText(target, type, value, null));
  }

  /** Waits until the ingress queue stays empty for a moment: every message has been handled. */
  @Override
  public void awaitIdle() throws InterruptedException {
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

  @Override
  public List<String> takeEgress(TypeName egress) {
    return app.takeEgress(egress);
  }

  @Override
  public List<String> takeDeadLetters() {
    return app.takeDeadLetters();
  }

  @Override
  public String stateJson(String address) {
    return app.stateView().json(address);
  }

  @Override
  public void showState(String address) {
    JsonNode values = read(stateJson(address).getBytes(StandardCharsets.UTF_8)).path("values");
    StringBuilder line = new StringBuilder("state of " + address + ":");
    if (values.isEmpty()) {
      line.append(" (none)");
    }
    values
        .fields()
        .forEachRemaining(
            v ->
                line.append(" ").append(v.getKey()).append("=").append(v.getValue().path("value")));
    say(line.toString());
  }

  @Override
  public String feed(String pipeline, List<byte[]> records) {
    return app.feed(pipeline, records);
  }

  @Override
  public long tickUntil(String pipeline, long eventTime, Duration wait) throws Exception {
    return PipelineTicks.until(
        function::invoke,
        PipelineTicks.rule(function.definition()),
        Application.tickTask(pipeline),
        eventTime,
        wait);
  }

  @Override
  public Optional<String> setting(String variable) {
    return app.setting(variable);
  }

  private static JsonNode read(byte[] json) {
    try {
      return JSON.readTree(json);
    } catch (java.io.IOException e) {
      return null;
    }
  }
}
