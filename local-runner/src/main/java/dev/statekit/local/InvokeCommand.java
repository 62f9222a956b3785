package dev.statekit.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Invokes a function of the template once with an event file, as {@code sam local invoke} does. */
@Command(
    name = "invoke",
    mixinStandardHelpOptions = true,
    description =
        "Invokes a function of the template with an event (e.g. events/sqs-ingress.json) and prints"
            + " its answer: through a running serve if there is one, else in this process.")
final class InvokeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin BackendOptions options;

  @Option(
      names = {"-e", "--event"},
      required = true,
      paramLabel = "FILE",
      description = "The event (any payload the function takes); - reads standard input.")
  String event;

  @Mixin FunctionOption function;

  @Override
  public Integer call() throws Exception {
    byte[] payload;
    if (event.equals("-")) {
      payload = System.in.readAllBytes();
    } else {
      Path file = Path.of(event);
      if (!Files.isRegularFile(file)) {
        spec.commandLine()
            .getErr()
            .println(
                "statekit-local invoke: "
                    + event
                    + ": no such file (the events/ folder has examples)");
        return 2;
      }
      payload = Files.readAllBytes(file);
    }
    Invocations invocations = Invocations.open(spec, options);
    try {
      return invocations.invokeAndPrint(function.name, payload, spec.commandLine().getOut());
    } finally {
      invocations.close();
    }
  }
}
