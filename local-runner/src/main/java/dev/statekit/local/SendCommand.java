package dev.statekit.local;

import dev.statekit.function.Address;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Sends one message to a function address. */
@Command(
    name = "send",
    mixinStandardHelpOptions = true,
    description =
        "Sends VALUE to the function at ADDRESS (namespace/type/id) as an ingress envelope, by a"
            + " direct invoke of the application's function: through the running serve if there is"
            + " one, else in this process.")
final class SendCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin BackendOptions options;

  @Parameters(
      index = "0",
      paramLabel = "ADDRESS",
      converter = AddressArgument.class,
      description = "namespace/type/id, e.g. shop/cart/ada")
  Address target;

  @Parameters(
      index = "1",
      paramLabel = "VALUE",
      description = "The value: text, or JSON with --type")
  String value;

  @Option(
      names = {"-t", "--type"},
      paramLabel = "TYPENAME",
      description = "The value's type name, e.g. shop/add-item (default: io.statefun.types/string)")
  String type;

  @Option(
      names = "--id",
      paramLabel = "KEY",
      description = "An idempotency key: sending the same key again is applied once.")
  String id;

  @Mixin FunctionOption function;

  @Override
  public Integer call() throws Exception {
    Invocations invocations = Invocations.open(spec, options);
    return invocations.invokeAndPrint(
        function.name, Envelopes.ofText(target, type, value, id), spec.commandLine().getOut());
  }
}
