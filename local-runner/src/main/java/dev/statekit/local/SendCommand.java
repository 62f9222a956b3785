package dev.statekit.local;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
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

  @Mixin MessageArguments message;

  @Mixin FunctionOption function;

  @Override
  public Integer call() throws Exception {
    Invocations invocations = Invocations.open(spec, options);
    return invocations.invokeAndPrint(
        function.name,
        Envelopes.ofText(message.target, message.type, message.value, message.id),
        spec.commandLine().getOut());
  }
}
