package dev.statekit.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.local.template.FunctionDef;
import dev.statekit.protocol.PayloadKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;

/**
 * How a client command reaches the functions: through the {@code serve} running from this directory
 * (its servers, its state), or, when none runs or a backend flag is given, in this process on that
 * backend.
 */
final class Invocations {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RunningServe serve;
  private final LocalDeployment deployment;
  private final String defaultFunction;
  private final String prefix;

  private Invocations(
      RunningServe serve, LocalDeployment deployment, String defaultFunction, String prefix) {
    this.serve = serve;
    this.deployment = deployment;
    this.defaultFunction = defaultFunction;
    this.prefix = prefix;
  }

  /** The prefix of the resources' names: the serve's, or the one this command was given. */
  String prefix() {
    return prefix;
  }

  static Invocations open(CommandSpec spec, BackendOptions options) throws IOException {
    Optional<RunningServe> serve = options.runningServe();
    var template = options.template();
    String defaultFunction =
        template
            .urlFunction()
            .map(FunctionDef::logicalId)
            .orElse(template.functions().get(0).logicalId());
    PrintWriter err = spec.commandLine().getErr();
    if (serve.isPresent()) {
      err.println(
          "(through the serve at " + serve.get().url() + ", pid " + serve.get().pid() + ")");
      err.flush();
      return new Invocations(serve.get(), null, defaultFunction, serve.get().prefix());
    }
    boolean emptyServers = options.startsEmptyServers();
    Backend backend = options.backend();
    if (!backend.hasServers()) {
      throw new IllegalStateException(
          "--in-memory keeps everything inside one process: use it with demo or serve, and invoke"
              + " through that serve");
    }
    err.println("(no serve running here: in this process on " + backend.describe() + ")");
    if (emptyServers) {
      err.println(
          "(embedded servers end with this command, and what it stores with them: start `serve`"
              + " in another terminal to keep state between commands)");
    }
    err.flush();
    return new Invocations(
        null,
        LocalDeployment.create(
            template, backend, options.prefix, new PrintWriter(PrintWriter.nullWriter())),
        defaultFunction,
        options.prefix);
  }

  RunningServe.Answer invoke(String function, byte[] payload)
      throws IOException, InterruptedException {
    String name = function == null ? defaultFunction : function;
    if (serve != null) {
      return serve.invoke(name, payload);
    }
    try {
      return new RunningServe.Answer(deployment.function(name).invoke(payload), false);
    } catch (LocalFunction.FunctionError e) {
      return new RunningServe.Answer(e.errorJson().getBytes(StandardCharsets.UTF_8), true);
    }
  }

  /** Invokes and prints the answer; 0 if the function answered, 1 if it failed. */
  int invokeAndPrint(String function, byte[] payload, PrintWriter out)
      throws IOException, InterruptedException {
    RunningServe.Answer answer = invoke(function, payload);
    out.println((answer.failed() ? "Function error: " : "") + describe(answer.body()));
    out.flush();
    return answer.failed() ? 1 : 0;
  }

  void close() {
    // The deployment's servers stop with the JVM; nothing else is held.
  }

  /** Readable form of an answer: JSON pretty-printed, protobuf bytes as base64. */
  static String describe(byte[] answer) {
    if (answer.length == 0) {
      return "(empty answer)";
    }
    if (PayloadKind.of(answer) == PayloadKind.JSON) {
      try {
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(JSON.readTree(answer));
      } catch (IOException e) {
        // not JSON after all
      }
    }
    if (PayloadKind.of(answer) == PayloadKind.TO_FUNCTION) {
      return "FromFunction ("
          + answer.length
          + " bytes, base64): "
          + Base64.getEncoder().encodeToString(answer);
    }
    return new String(answer, StandardCharsets.UTF_8);
  }
}
