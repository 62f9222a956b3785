package dev.statekit.runtime.simulation;

import java.util.ArrayList;
import java.util.List;

/**
 * The faults of one schedule, drawn from its seed: how often a process dies at a step or stalls
 * there (longer than a visibility timeout), windows in which the store, the queue or the egress
 * sink refuse every call, how often a call that succeeded reports a failure (its answer was lost),
 * how often an eventually consistent read is stale, and whether batches are delivered twice. All of
 * it stops at {@link #until}: after that, everything must drain.
 */
final class Faults {
  static final Faults NONE = new Faults(0, 0, 0, 0, 0, 0, 0, List.of(), List.of(), List.of());

  final long until;
  final double crash;
  final double stall;
  final double ambiguous;
  final double stale;
  final double duplicate;
  final long stallMillis;
  final List<long[]> storeDown;
  final List<long[]> queueDown;
  final List<long[]> sinkDown;

  private Faults(
      long until,
      double crash,
      double stall,
      double ambiguous,
      double stale,
      double duplicate,
      long stallMillis,
      List<long[]> storeDown,
      List<long[]> queueDown,
      List<long[]> sinkDown) {
    this.until = until;
    this.crash = crash;
    this.stall = stall;
    this.ambiguous = ambiguous;
    this.stale = stale;
    this.duplicate = duplicate;
    this.stallMillis = stallMillis;
    this.storeDown = storeDown;
    this.queueDown = queueDown;
    this.sinkDown = sinkDown;
  }

  /**
   * Faults until {@code until} (ms after the start). Some schedules get none of a kind, so that
   * each kind is also seen alone; an outage lasts at most {@code maxOutage}.
   */
  static Faults draw(Simulation sim, long until, long maxOutage) {
    return new Faults(
        Simulation.START + until,
        sim.chance(0.8) ? sim.between(1, 30) / 1000.0 : 0,
        sim.chance(0.5) ? sim.between(1, 8) / 1000.0 : 0,
        sim.chance(0.6) ? sim.between(1, 60) / 1000.0 : 0,
        sim.chance(0.7) ? sim.between(10, 500) / 1000.0 : 0,
        sim.chance(0.5) ? sim.between(10, 100) / 1000.0 : 0,
        // Mostly past the visibility timeout; now and then past SQS's five-minute deduplication.
        sim.chance(0.2) ? sim.between(300_000, 420_000) : sim.between(31_000, 45_000),
        windows(sim, until, maxOutage),
        windows(sim, until, maxOutage),
        windows(sim, until, maxOutage));
  }

  private static List<long[]> windows(Simulation sim, long until, long maxOutage) {
    List<long[]> windows = new ArrayList<>();
    int count = sim.nextInt(3);
    for (int i = 0; i < count; i++) {
      long start = Simulation.START + sim.between(0, until);
      long end = Math.min(Simulation.START + until, start + sim.between(1_000, maxOutage));
      windows.add(new long[] {start, end});
    }
    return windows;
  }

  boolean active(Simulation sim) {
    return sim.now() < until;
  }

  boolean crashAt(Simulation sim, Object what) {
    return active(sim) && crash > 0 && sim.chance(crash);
  }

  boolean stallAt(Simulation sim, Object what) {
    return active(sim) && stall > 0 && sim.chance(stall);
  }

  long stallMillis(Simulation sim) {
    return stallMillis;
  }

  boolean ambiguous(Simulation sim) {
    return active(sim) && ambiguous > 0 && sim.chance(ambiguous);
  }

  boolean stale(Simulation sim) {
    return active(sim) && stale > 0 && sim.chance(stale);
  }

  boolean duplicate(Simulation sim) {
    return active(sim) && duplicate > 0 && sim.chance(duplicate);
  }

  static boolean within(List<long[]> windows, long now) {
    for (long[] window : windows) {
      if (now >= window[0] && now < window[1]) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return String.format(
        "faults until %ds: crash %.3f, stall %.3f (%d ms), ambiguous %.3f, stale %.3f, duplicate"
            + " %.3f, store down %s, queue down %s, sink down %s",
        (until - Simulation.START) / 1000,
        crash,
        stall,
        stallMillis,
        ambiguous,
        stale,
        duplicate,
        describe(storeDown),
        describe(queueDown),
        describe(sinkDown));
  }

  private static String describe(List<long[]> windows) {
    List<String> parts = new ArrayList<>();
    for (long[] w : windows) {
      parts.add(
          String.format(
              "%.1f-%.1fs",
              (w[0] - Simulation.START) / 1000.0, (w[1] - Simulation.START) / 1000.0));
    }
    return parts.toString();
  }
}
