package dev.statekit.local;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code statekit-local} command line: runs StateKit's handlers on this machine. */
@Command(
    name = "statekit-local",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description =
        "Runs a StateKit application (template.yaml and its handlers) on one machine: embedded"
            + " servers, LocalStack, AWS or in memory.",
    subcommands = {
      DemoCommand.class,
      ServeCommand.class,
      InvokeCommand.class,
      TablesCommand.class,
      ReplayCommand.class,
      SendCommand.class,
      CallCommand.class,
      ConsoleCommand.class,
      StateCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main {
  private Main() {}

  /** The command line, failures reported as one line that says what to do. */
  static CommandLine commandLine() {
    return new CommandLine(new Main()).setExecutionExceptionHandler(new Failures());
  }

  /** The version the build wrote into the jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Main.class.getPackage().getImplementationVersion();
      return new String[] {
        "StateKit local runner " + (version == null ? "(not built as a jar)" : version)
      };
    }
  }

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    int status = commandLine().execute(args);
    // The embedded servers' shutdown hooks stop them on exit.
    System.exit(status);
  }
}
