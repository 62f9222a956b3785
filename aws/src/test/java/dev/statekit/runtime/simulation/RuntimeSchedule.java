package dev.statekit.runtime.simulation;

import java.util.List;

/**
 * One simulated schedule of the self-hosted runtime, decided by its seed: the workload, the faults
 * (until {@link #FAULTS_FOR}), a deploy that removes a function (in some), then a drain with no
 * faults until everything is quiet (at most {@link #AT_MOST}); then the invariants.
 */
final class RuntimeSchedule {
  static final long FAULTS_FOR = 8 * 60_000;
  static final long MAX_OUTAGE = 20_000;
  static final long AT_MOST = 60 * 60_000;
  private static final long QUIET_FROM = 11 * 60_000;

  /** What a schedule came to. */
  record Outcome(long seed, List<String> violations, String report) {
    boolean passed() {
      return violations.isEmpty();
    }
  }

  private RuntimeSchedule() {}

  static Outcome run(long seed) {
    Simulation sim = new Simulation(seed);
    Faults faults = Faults.draw(sim, FAULTS_FOR, MAX_OUTAGE);
    long redeployAt = sim.chance(0.4) ? Simulation.START + sim.between(60_000, 300_000) : 0;
    // Most functions time out within a minute; some take Lambda's longest, fifteen minutes, so a
    // batch can outlast SQS's five minutes of deduplication.
    java.time.Duration timeout =
        sim.chance(0.8) ? java.time.Duration.ofSeconds(60) : java.time.Duration.ofMinutes(15);
    Deployment deployment = new Deployment(sim, redeployAt, timeout);
    Workload workload = Workload.draw(sim);
    sim.faults(faults);
    workload.schedule(deployment);
    deployment.start();
    List<String> violations;
    String stuck = "";
    try {
      sim.run(Simulation.START + QUIET_FROM);
      while (sim.elapsed() < AT_MOST && !quiet(sim, deployment, workload)) {
        sim.run(sim.now() + 60_000);
        // Let what is in flight (a sweep that just began) finish before asking.
        for (int i = 0; i < 30 && sim.busy(); i++) {
          sim.run(sim.now() + 1_000);
        }
      }
      stuck = quiet(sim, deployment, workload) ? "" : why(sim, deployment, workload);
      sim.close();
      violations = Invariants.check(workload, deployment);
    } catch (Simulation.SimulationDefect defect) {
      sim.close();
      violations = List.of(defect.getMessage() + ": " + stack(defect.getCause()));
    }
    String report =
        "seed "
            + seed
            + ": "
            + workload.items.size()
            + " messages, "
            + faults
            + (redeployAt > 0
                ? ", legacy removed at " + (redeployAt - Simulation.START) / 1000 + "s"
                : "")
            + ", function timeout "
            + timeout.toSeconds()
            + "s; "
            + deployment.crashes
            + " crashes, "
            + deployment.duplicates
            + " batches invoked twice, "
            + (deployment.onTime
                ? "wake-ups: "
                    + deployment.wakeUps.lost
                    + " lost, "
                    + deployment.wakeUps.duplicated
                    + " duplicated, "
                    + deployment.wakeUps.early
                    + " early, "
                    + deployment.wakeUps.late
                    + " late"
                : "no wake-up queue (the sweep alone)")
            + ", ended at "
            + sim.elapsed() / 1000
            + "s"
            + (quiet(sim, deployment, workload)
                ? ""
                : " (not quiet: " + why(sim, deployment, workload) + ")");
    if (!violations.isEmpty()) {
      StringBuilder items = new StringBuilder();
      workload.items.forEach(
          i ->
              items
                  .append("\n  ")
                  .append((i.at() - Simulation.START) / 1000.0)
                  .append("s ")
                  .append(i.path())
                  .append(i.key() == null ? "" : " " + i.key())
                  .append(" -> ")
                  .append(i.target())
                  .append(": ")
                  .append(i.command()));
      report += "\nworkload:" + items + "\ntrace (last lines):\n" + sim.traceTail();
    }
    return new Outcome(seed, violations, report);
  }

  private static boolean quiet(Simulation sim, Deployment deployment, Workload workload) {
    return !sim.busy()
        && workload.allAnswered()
        && deployment.ingressQueue.size() == 0
        && deployment.store.real.allTimers().isEmpty()
        && deployment.store.real.allOutboxes().stream().allMatch(e -> e.addresses().isEmpty());
  }

  private static String why(Simulation sim, Deployment deployment, Workload workload) {
    return "busy "
        + sim.busy()
        + ", answered "
        + workload.allAnswered()
        + ", queued "
        + deployment.ingressQueue.size()
        + ", timers "
        + deployment.store.real.allTimers().size()
        + ", outboxes "
        + deployment.store.real.allOutboxes();
  }

  private static String stack(Throwable e) {
    java.io.StringWriter out = new java.io.StringWriter();
    e.printStackTrace(new java.io.PrintWriter(out));
    return out.toString();
  }
}
