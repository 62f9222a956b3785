package dev.statekit.application;

import java.util.Objects;

/**
 * A batch pipeline of an application and the Kinesis stream it reads.
 *
 * @param name the pipeline's name (its tick is the scheduled task {@code <name>-tick})
 * @param streamVariable the variable holding the stream's name or ARN
 * @param factory builds the pipeline over what the wiring gives it
 */
public record PipelineDeclaration(String name, String streamVariable, PipelineFactory factory) {
  /** Checks the parts. */
  public PipelineDeclaration {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(streamVariable, "streamVariable");
    Objects.requireNonNull(factory, "factory");
    if (!name.matches("[A-Za-z0-9._-]{1,59}")) {
      throw new IllegalArgumentException(
          "A pipeline's name is 1 to 59 letters, digits, '.', '_' or '-', got '" + name + "'");
    }
    if (!streamVariable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException(
          "A stream variable is an environment variable name, got '" + streamVariable + "'");
    }
  }
}
