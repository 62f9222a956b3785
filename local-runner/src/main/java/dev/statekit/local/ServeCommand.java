package dev.statekit.local;

import dev.statekit.local.emulation.Activity;
import dev.statekit.local.template.Template;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs the template's functions until stopped: the function URL (the StateFun endpoint) and
 * Lambda's invoke API over HTTP, and every event source emulated.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description =
        "Runs the template's functions on this machine until Ctrl-C: the StateFun endpoint (the"
            + " function URL) and Lambda's invoke API over HTTP, the SQS queues polled, the Kinesis"
            + " streams read and the schedules fired as Lambda's event sources would.")
final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin BackendOptions options;

  @Option(
      names = "--port",
      defaultValue = "8000",
      description = "The HTTP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      description = "The interface to listen on (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(
      names = "--tick",
      paramLabel = "SECONDS",
      description = "Fire the schedules every SECONDS instead of at the template's rate.")
  Integer tickSeconds;

  @Option(
      names = "--retry-after",
      paramLabel = "SECONDS",
      defaultValue = "-1",
      description =
          "Failed SQS messages come back after SECONDS instead of the queue's visibility timeout.")
  int retryAfterSeconds;

  @Override
  public Integer call() throws Exception {
    Running running;
    try {
      running = start();
    } catch (BindException e) {
      spec.commandLine().getErr().println("statekit-local serve: " + e.getMessage());
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  running.close();
                  stopped.countDown();
                },
                "statekit-serve-stop"));
    stopped.await();
    return 0;
  }

  /** Brings everything up and says where; the caller closes it. */
  Running start() throws IOException {
    if (port < 0 || port > 65535) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--port is 0 to 65535, got " + port);
    }
    checkPortIsFree();
    PrintWriter out = spec.commandLine().getOut();
    Backend backend = options.backend();
    Template template = options.template();
    out.println("StateKit local runner: " + template.source() + " on " + backend.describe());
    LocalApp app = LocalApp.open(backend, template, options.prefix, java.util.Map.of(), out);
    ConsoleData console = app.console();
    LocalLambdaServer server =
        LocalLambdaServer.start(
            host,
            port,
            app::function,
            app.urlFunction(),
            controlApi(app),
            console == null ? null : new ConsoleApi(console));
    Activity activity = new Activity(out);
    EgressLog.showOn(activity, declaredOrNone(app));
    List<String> sources =
        app.startEventSources(
            activity,
            tickSeconds == null ? null : Duration.ofSeconds(tickSeconds),
            retryAfterSeconds);
    RunningServe record =
        new RunningServe(ProcessHandle.current().pid(), server.url(), backend, options.prefix);
    record.write();
    if (app.urlFunction() != null) {
      out.println(
          "Function URL of " + app.urlFunction() + " (the StateFun endpoint): " + server.url());
    }
    out.println(
        "Lambda invoke API: "
            + server.url()
            + "2015-03-31/functions/{"
            + String.join("|", app.functionNames())
            + "}/invocations");
    sources.forEach(line -> out.println("  " + line));
    if (console != null) {
      out.println("Console: " + server.url() + "console/");
    }
    out.println("Stop with Ctrl-C.");
    out.flush();
    return new Running(server, app, record);
  }

  /** The application's declaration, or null for a template that declares none. */
  private static dev.statekit.application.Application declaredOrNone(LocalApp app) {
    try {
      return app.application();
    } catch (IllegalStateException e) {
      return null;
    }
  }

  private static ControlApi controlApi(LocalApp app) {
    try {
      StateView view = app.stateView();
      return new ControlApi(view::json);
    } catch (IllegalStateException e) {
      return ControlApi.none();
    }
  }

  /** Fails at once on a taken port, before servers and resources are brought up. */
  private void checkPortIsFree() throws BindException {
    if (port == 0) {
      return;
    }
    try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
      probe.bind(new java.net.InetSocketAddress(host, port));
    } catch (IOException e) {
      throw LocalLambdaServer.portTaken(host, port, e);
    }
  }

  /** What a serve holds; closing it stops everything. */
  record Running(LocalLambdaServer server, LocalApp app, RunningServe record)
      implements AutoCloseable {
    @Override
    public void close() {
      app.close();
      server.close();
      record.delete();
    }
  }
}
