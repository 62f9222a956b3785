package dev.statekit.local;

import dev.statekit.function.Address;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Prints an address's stored values, decoded. */
@Command(
    name = "state",
    mixinStandardHelpOptions = true,
    description =
        "Prints the values stored for ADDRESS (namespace/type/id), each decoded by the type its"
            + " function declares: from the running serve if there is one, else from the backend's"
            + " table.")
final class StateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin BackendOptions options;

  @Parameters(
      paramLabel = "ADDRESS",
      converter = AddressArgument.class,
      description = "namespace/type/id, e.g. shop/inventory/book")
  Address address;

  @Override
  public Integer call() throws Exception {
    Optional<RunningServe> serve = options.runningServe();
    if (serve.isPresent()) {
      var response = serve.get().get("statekit/state/" + address);
      if (response.statusCode() != 200) {
        spec.commandLine().getErr().println("statekit-local state: " + response.body().trim());
        return 1;
      }
      spec.commandLine().getOut().println(response.body());
      return 0;
    }
    if (options.startsEmptyServers()) {
      // The embedded servers live as long as the process that starts them: these would be empty.
      spec.commandLine()
          .getErr()
          .println(
              "statekit-local state: no serve is running here, and embedded servers keep nothing"
                  + " between commands; start `serve` in another terminal and send to it, or read"
                  + " a lasting backend with --localstack or --aws");
      return 2;
    }
    Backend backend = options.backend();
    if (!backend.hasServers()) {
      spec.commandLine()
          .getErr()
          .println(
              "statekit-local state: --in-memory state lives inside its serve; start one with serve --in-memory and ask again without flags");
      return 2;
    }
    LocalDeployment deployment =
        LocalDeployment.create(
            options.template(), backend, options.prefix, new PrintWriter(PrintWriter.nullWriter()));
    try {
      spec.commandLine().getOut().println(deployment.stateView().json(address.toString()));
    } catch (IllegalArgumentException | IllegalStateException e) {
      spec.commandLine().getErr().println("statekit-local state: " + e.getMessage());
      return 1;
    }
    return 0;
  }
}
