package dev.statekit.local;

import picocli.CommandLine.Option;

/** The {@code --function} option of the commands that invoke one function of the template. */
final class FunctionOption {
  @Option(
      names = {"-f", "--function"},
      paramLabel = "NAME",
      description = "The function's logical id (default: the one with a function URL).")
  String name;
}
