package dev.statekit.local;

import dev.statekit.local.template.Template;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The console alone, over resources the runner created before (on AWS, LocalStack or the servers of
 * a serve running from this directory): it runs no function and no event source, creates nothing,
 * and writes nothing unless {@code --allow-writes} (a dead letter's resend).
 */
@Command(
    name = "console",
    mixinStandardHelpOptions = true,
    description =
        "Serves the console (state, pipelines' splits, queues and dead letters) over the template's"
            + " resources created before under --prefix, running nothing; read only unless"
            + " --allow-writes. With a serve running here, use its own console instead.")
final class ConsoleCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin BackendOptions options;

  @Option(
      names = "--port",
      defaultValue = "8001",
      description = "The HTTP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      description = "The interface to listen on (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(
      names = "--names",
      paramLabel = "FILE",
      description =
          "The physical names of a deployed stack's resources: a logical id and its name (a queue's"
              + " URL) per line, as `aws cloudformation describe-stack-resources --stack-name S"
              + " --query 'StackResources[].[LogicalResourceId,PhysicalResourceId]' --output text`"
              + " prints them; resources not named there are looked up under --prefix.")
  Path names;

  @Option(
      names = "--allow-writes",
      description = "Let the console resend dead letters (it is read only without).")
  boolean allowWrites;

  @Override
  public Integer call() throws Exception {
    Running running = start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  running.close();
                  stopped.countDown();
                },
                "statekit-console-stop"));
    stopped.await();
    return 0;
  }

  /** Finds the resources and serves the console; the caller closes it. */
  Running start() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    Optional<RunningServe> serve = options.runningServe();
    if (serve.isPresent()) {
      throw new IllegalStateException(
          "A serve runs from this directory: its console is at " + serve.get().url() + "console/");
    }
    Backend backend = options.backend();
    if (!backend.hasServers()) {
      throw new IllegalStateException(
          "In memory nothing outlives its process: run serve --in-memory, whose console is at"
              + " /console/");
    }
    if (options.startsEmptyServers()) {
      throw new IllegalStateException(
          "No serve runs here and the embedded servers would start empty: start serve (its"
              + " console is at /console/), or give --aws or --localstack");
    }
    Template template = options.template();
    out.println("StateKit console: " + template.source() + " on " + backend.describe());
    LocalDeployment deployment =
        LocalDeployment.existing(
            template,
            backend,
            options.prefix,
            names == null ? Map.of() : ResourceNames.read(names),
            out);
    var definition =
        ApplicationCode.applicationFunction(template)
            .orElseThrow(() -> new IllegalStateException(LocalApp.noDeclaration(template)));
    ServersConsole console =
        new ServersConsole(
            deployment,
            LocalApp.declared(template),
            deployment.environment(definition),
            !allowWrites,
            null);
    LocalLambdaServer server =
        LocalLambdaServer.start(
            host, port, name -> null, null, ControlApi.none(), new ConsoleApi(console));
    out.println(
        "Console: "
            + server.url()
            + "console/"
            + (allowWrites ? "" : " (read only; --allow-writes to resend dead letters)"));
    out.println("Stop with Ctrl-C.");
    out.flush();
    return new Running(server);
  }

  /** What the console holds; closing it stops it. */
  record Running(LocalLambdaServer server) implements AutoCloseable {
    @Override
    public void close() {
      server.close();
    }
  }
}
