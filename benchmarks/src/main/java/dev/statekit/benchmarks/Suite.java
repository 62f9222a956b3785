package dev.statekit.benchmarks;

import java.io.PrintStream;
import java.util.List;

/** One named group of measurements, run side by side with the peer it is compared against. */
public interface Suite {
  /** The name given on the command line. */
  String name();

  /** One line on what the suite measures and against which peer. */
  String description();

  /**
   * Takes the options given after the suite's name on the command line.
   *
   * @throws IllegalArgumentException for an option the suite does not know (the default: it takes
   *     none)
   */
  default void options(List<String> options) {
    if (!options.isEmpty()) {
      throw new IllegalArgumentException(name() + " takes no options, got " + options);
    }
  }

  /**
   * Runs every case of the suite.
   *
   * @param log where progress goes while the suite runs
   * @return one result per measured case
   */
  List<Result> run(PrintStream log) throws Exception;
}
