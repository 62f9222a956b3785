package dev.statekit.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Runs a benchmark suite by name and prints its RESULT lines last. */
public final class Main {
  private Main() {}

  /**
   * {@code SUITE [OPTIONS]} runs one suite (options are the suite's own), {@code all} runs each; no
   * argument lists them.
   */
  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    List<Suite> suites = Suites.all();
    if (args.length < 1 || (args[0].equals("all") && args.length > 1)) {
      out.println("usage: java -jar benchmarks/target/statekit-benchmarks.jar SUITE [OPTIONS]|all");
      suites.forEach(s -> out.println("  " + s.name() + "  " + s.description()));
      System.exit(args.length == 0 ? 0 : 2);
    }
    List<Suite> chosen = new ArrayList<>();
    for (Suite suite : suites) {
      if (args[0].equals("all") || suite.name().equals(args[0])) {
        chosen.add(suite);
      }
    }
    if (chosen.isEmpty()) {
      System.err.println(
          "Unknown suite '" + args[0] + "'. Known: " + suites.stream().map(Suite::name).toList());
      System.exit(2);
    }
    if (args.length > 1) {
      try {
        chosen.get(0).options(List.of(args).subList(1, args.length));
      } catch (IllegalArgumentException e) {
        System.err.println(e.getMessage());
        System.exit(2);
      }
    }
    List<Result> results = new ArrayList<>();
    for (Suite suite : chosen) {
      out.println("== " + suite.name() + ": " + suite.description());
      results.addAll(suite.run(out));
    }
    results.forEach(r -> out.println(r.line()));
    // Embedded servers and peer engines may leave non-daemon threads behind.
    System.exit(0);
  }
}
