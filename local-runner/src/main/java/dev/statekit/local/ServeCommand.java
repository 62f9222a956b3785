package dev.statekit.local;

import dev.statekit.examples.greeter.ExampleFunctions;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.TypeName;
import dev.statekit.http.FunctionHttpServer;
import dev.statekit.protocol.RequestReplyHandler;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Serves the example functions over the StateFun HTTP endpoint until stopped. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description =
        "Serves the example functions (example/greeter, example/audit, example/reminder) to a"
            + " Flink StateFun runtime over HTTP until stopped with Ctrl-C.")
final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--port",
      defaultValue = "8000",
      description = "The port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      description = "The interface to listen on (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(
      names = "--max-request-bytes",
      defaultValue = "" + FunctionHttpServer.DEFAULT_MAX_REQUEST_BYTES,
      description = "The largest request body accepted, in bytes (default: ${DEFAULT-VALUE}).")
  long maxRequestBytes;

  @Override
  public Integer call() throws InterruptedException {
    FunctionHttpServer server;
    try {
      server = start();
    } catch (BindException e) {
      spec.commandLine().getErr().println("statekit-local serve: " + e.getMessage());
      return 1;
    } catch (IOException | IllegalArgumentException e) {
      spec.commandLine().getErr().println("statekit-local serve: " + e.getMessage());
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                },
                "statekit-serve-stop"));
    stopped.await();
    return 0;
  }

  /** Starts the server and says where it listens. */
  FunctionHttpServer start() throws IOException {
    StatefulFunctions functions = ExampleFunctions.registry();
    FunctionHttpServer server =
        FunctionHttpServer.builder(new RequestReplyHandler(functions))
            .host(host)
            .port(port)
            .maxRequestBytes(maxRequestBytes)
            .start();
    PrintWriter out = spec.commandLine().getOut();
    out.println("StateKit functions listening on " + server.url());
    for (TypeName type : functions.types()) {
      out.println(
          "  " + type + "  POST " + server.url().resolve(type.namespace() + "/" + type.name()));
    }
    out.println("Any other path serves every function. Stop with Ctrl-C.");
    out.flush();
    return server;
  }
}
