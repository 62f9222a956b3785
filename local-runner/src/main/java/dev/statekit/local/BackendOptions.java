package dev.statekit.local;

import dev.statekit.local.template.Template;
import dev.statekit.testservers.LocalServers;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options every command that needs servers shares: which backend, which template, names. */
final class BackendOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = "--localstack",
      arity = "0..1",
      fallbackValue = "http://localhost:4566",
      paramLabel = "URL",
      description =
          "Use LocalStack at URL (default http://localhost:4566) instead of the embedded servers.")
  String localStack;

  @Option(
      names = "--aws",
      description = "Use real AWS (region and credentials as the AWS CLI finds them).")
  boolean aws;

  @Option(
      names = "--in-memory",
      description = "No servers at all: the in-memory adapters (nothing but the JDK).")
  boolean inMemory;

  @Option(
      names = "--template",
      paramLabel = "FILE",
      description = "The application's SAM template (default: ./template.yaml).")
  Path template;

  @Option(
      names = "--prefix",
      defaultValue = "statekit",
      description = "Names of created resources start with this (default: ${DEFAULT-VALUE}).")
  String prefix;

  /**
   * The serve running from this directory, unless a backend flag was given (the command then runs
   * on that backend itself).
   */
  Optional<RunningServe> runningServe() {
    return choosesEmbedded() ? RunningServe.find() : Optional.empty();
  }

  /** True if no backend flag was given: the embedded servers (or the endpoint variables). */
  boolean choosesEmbedded() {
    return localStack == null && !aws && !inMemory;
  }

  /**
   * True if this command would start embedded servers of its own: empty, and gone when it ends (no
   * serve's, none configured elsewhere).
   */
  boolean startsEmptyServers() {
    return choosesEmbedded() && LocalServers.dynamoDbWouldStartEmpty();
  }

  /** The chosen backend, servers started if embedded. */
  Backend backend() {
    int chosen = (localStack != null ? 1 : 0) + (aws ? 1 : 0) + (inMemory ? 1 : 0);
    if (chosen > 1) {
      throw new ParameterException(
          spec.commandLine(),
          "Choose one of --localstack, --aws and --in-memory (or none, for the embedded servers)");
    }
    if (!prefix.matches("[A-Za-z0-9-]{1,40}")) {
      throw new ParameterException(
          spec.commandLine(), "--prefix is 1 to 40 letters, digits or '-', got '" + prefix + "'");
    }
    if (localStack != null) {
      URI uri;
      try {
        uri = URI.create(localStack);
      } catch (IllegalArgumentException e) {
        uri = null;
      }
      if (uri == null
          || uri.getHost() == null
          || uri.getScheme() == null
          || !uri.getScheme().startsWith("http")) {
        throw new ParameterException(
            spec.commandLine(),
            "--localstack takes an http(s) URL such as http://localhost:4566, not '"
                + localStack
                + "'");
      }
      return Backend.localStack(uri);
    }
    return aws ? Backend.aws() : inMemory ? Backend.inMemory() : Backend.embedded();
  }

  /** The template to use. */
  Template template() throws IOException {
    if (template != null) {
      if (!Files.isRegularFile(template)) {
        throw new ParameterException(
            spec.commandLine(), "--template " + template + ": no such file");
      }
      return Template.load(template);
    }
    Path here = Path.of("template.yaml");
    String named = System.getProperty("statekit.template");
    if (!Files.isRegularFile(here) && named != null && !named.isBlank()) {
      here = Path.of(named);
    }
    if (!Files.isRegularFile(here)) {
      throw new ParameterException(
          spec.commandLine(),
          "No template.yaml in "
              + Path.of("").toAbsolutePath()
              + ": run from the application's directory or pass --template FILE");
    }
    return Template.load(here);
  }
}
