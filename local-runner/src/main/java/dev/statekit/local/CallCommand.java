package dev.statekit.local;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Calls a function address and prints its reply. */
@Command(
    name = "call",
    mixinStandardHelpOptions = true,
    description =
        "Calls the function at ADDRESS (namespace/type/id) with VALUE and prints its reply (an"
            + " envelope with \"call\": true, by a direct invoke of the application's function:"
            + " through the running serve if there is one, else in this process). A running serve"
            + " also answers calls over HTTP: POST /call/<namespace>/<type>/<id>.")
final class CallCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin BackendOptions options;

  @Mixin MessageArguments message;

  @Mixin FunctionOption function;

  @Override
  public Integer call() throws Exception {
    Invocations invocations = Invocations.open(spec, options);
    RunningServe.Answer answer =
        invocations.invoke(
            function.name,
            Envelopes.callOfText(message.target, message.type, message.value, message.id));
    java.io.PrintWriter out = spec.commandLine().getOut();
    out.println((answer.failed() ? "Function error: " : "") + Invocations.describe(answer.body()));
    out.flush();
    // A call is answered with its status whatever became of it: only "applied" is success.
    return !answer.failed() && applied(answer.body()) ? 0 : 1;
  }

  private static boolean applied(byte[] answer) {
    try {
      return "applied"
          .equals(
              new com.fasterxml.jackson.databind.ObjectMapper()
                  .readTree(answer)
                  .path("status")
                  .asText());
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
