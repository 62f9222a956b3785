package dev.statekit.stream.lambda.simulation;

import static org.junit.jupiter.api.Assertions.fail;

import dev.statekit.simulation.SeedRunner;
import java.util.List;

/** Runs seeds of the simulation and reports the first failure with how to reproduce it. */
public final class SimulationRuns {
  private SimulationRuns() {}

  /**
   * Runs the seeds the system properties name over {@code workloads}; fails on the first broken
   * invariant, printing the seed, its schedule, its trace and the command that runs it again.
   *
   * @param test the test class, for the command
   * @param module the Maven module it is in
   * @param seeds how many schedules to run unless {@code -Dsimulation.seeds} says
   */
  public static void check(List<Workload> workloads, String test, String module, long seeds) {
    check(workloads, test, module, seeds, false);
  }

  /**
   * As {@link #check(List, String, String, long)}; {@code shared}: invocations at the same time may
   * share an instance ({@link Simulation#run(long, List, boolean)}).
   */
  public static void check(
      List<Workload> workloads, String test, String module, long seeds, boolean shared) {
    check(workloads, test, module, seeds, shared, LateWrites.ON ? LateWrites.MAX_CHANCE : 0);
  }

  /**
   * As {@link #check(List, String, String, long, boolean)}, with writes in flight when their
   * invocation died landing late if {@code lateChance} is above 0 ({@link Simulation#run(long,
   * List, boolean, double)}).
   */
  public static void check(
      List<Workload> workloads,
      String test,
      String module,
      long seeds,
      boolean shared,
      double lateChance) {
    String one = System.getProperty("simulation.seed");
    long first = Long.getLong("simulation.first", 1);
    long count = Long.getLong("simulation.seeds", seeds);
    if (one != null && !one.isBlank()) {
      first = Long.parseLong(one.trim());
      count = 1;
    }
    // Schedules give up on batches by the thousand: their warnings would be most of the output.
    try (dev.statekit.telemetry.Telemetry.Restore quiet =
        dev.statekit.telemetry.LogOutput.route(
            "dev.statekit.stream",
            event -> {
              if (event.level().compareTo(dev.statekit.telemetry.LogLevel.ERROR) >= 0) {
                System.out.println(event.message());
              }
            })) {
      run(workloads, test, module, first, count, shared, lateChance);
    }
  }

  private static void run(
      List<Workload> workloads,
      String test,
      String module,
      long first,
      long count,
      boolean shared,
      double lateChance) {
    long started = System.nanoTime();
    boolean survey = Boolean.getBoolean("simulation.survey");
    java.util.Map<String, List<Long>> found = new java.util.TreeMap<>();
    try (SeedRunner<Simulation.Outcome> seeds =
        new SeedRunner<>(
            first, count, seed -> Simulation.run(seed, workloads, shared, lateChance))) {
      check(seeds, test, module, survey, found);
    }
    if (survey) {
      found.forEach(
          (kind, seeds) ->
              System.out.println(
                  "SURVEY "
                      + seeds.size()
                      + " x "
                      + kind
                      + " "
                      + seeds.subList(0, Math.min(8, seeds.size()))));
    }
    if (lateChance > 0) {
      synchronized (LateWrites.TOTALS) {
        LateWrites.TOTALS.forEach(
            (kind, n) ->
                System.out.println(
                    "LATE " + kind + ": held " + n[0] + ", landed after others' requests " + n[1]));
      }
    }
    long broken = found.values().stream().flatMap(List::stream).distinct().count();
    System.out.printf(
        "%d schedules, %d violations (seeds %d to %d, %.1f s)%n",
        count, broken, first, first + count - 1, (System.nanoTime() - started) / 1e9);
  }

  /** Takes the outcomes in seed order; fails at the first broken one unless surveying. */
  private static void check(
      SeedRunner<Simulation.Outcome> seeds,
      String test,
      String module,
      boolean survey,
      java.util.Map<String, List<Long>> found) {
    while (seeds.hasNext()) {
      Simulation.Outcome outcome = seeds.next();
      long seed = outcome.seed();
      if (!outcome.ok() && survey) {
        for (String violation : outcome.violations()) {
          String kind = violation.replaceAll("[0-9]+", "N");
          kind = kind.substring(0, Math.min(90, kind.length()));
          found.computeIfAbsent(kind, k -> new java.util.ArrayList<>()).add(seed);
        }
        continue;
      }
      if (!outcome.ok()) {
        fail(
            "Seed "
                + seed
                + " broke "
                + outcome.violations().size()
                + " invariant(s):\n  "
                + String.join("\n  ", outcome.violations())
                + "\n"
                + outcome.report()
                + "\nRun it alone: mvn -B -q -pl "
                + module
                + " test -Dtest="
                + test
                + " -Dsimulation.seed="
                + seed
                + " -Dsurefire.failIfNoSpecifiedTests=false");
      }
    }
  }
}
