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
      var response = serve.get().get("statekit/state/" + pathOf(address));
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

  /**
   * The address as a URL path, each part percent-encoded: an id may hold {@code ?}, {@code #} or
   * {@code %}, which pasted in start a query, a fragment or an escape, and be {@code .} or {@code
   * ..}, which resolving the path removes (so dots are encoded too).
   */
  private static String pathOf(Address address) {
    return segment(address.type().namespace())
        + "/"
        + segment(address.type().name())
        + "/"
        + segment(address.id());
  }

  private static String segment(String part) {
    StringBuilder out = new StringBuilder();
    for (byte b : part.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '_'
          || c == '~') {
        out.append(c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)));
        out.append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
      }
    }
    return out.toString();
  }
}
