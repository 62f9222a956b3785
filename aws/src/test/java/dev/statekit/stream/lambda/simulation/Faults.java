package dev.statekit.stream.lambda.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * The faults of one schedule, drawn from its seed: how likely each kind is while faults last (until
 * {@link #end}), and the windows of time in which the sink is down and the table throttles. After
 * {@link #end} nothing fails, so that the invariants of liveness can be checked.
 */
final class Faults {
  final Random random;
  final long end;
  final double crashAtStep;
  final double crashInStep;
  final double crashAfterCall;
  final double throttle;
  final double sinkFails;
  final double duplicate;
  final double concurrent;
  final double coldStart;
  private final List<long[]> sinkDown = new ArrayList<>();
  private final List<long[]> tableThrottled = new ArrayList<>();
  private final LongSupplier clock;

  Faults(Random random, long start, LongSupplier clock) {
    this.random = random;
    this.clock = clock;
    long span = 20 * 60_000L + random.nextInt(100) * 60_000L;
    this.end = start + span;
    double level = random.nextDouble();
    crashAtStep = level * 0.08;
    crashInStep = level * 0.04;
    crashAfterCall = level * 0.02;
    throttle = level * 0.05;
    sinkFails = level * 0.05;
    duplicate = random.nextDouble() * 0.1;
    concurrent = random.nextDouble() * 0.1;
    coldStart = random.nextDouble() * 0.3;
    for (int i = random.nextInt(3); i > 0; i--) {
      long from = start + (long) (random.nextDouble() * span);
      sinkDown.add(new long[] {from, from + random.nextInt(25) * 60_000L});
    }
    for (int i = random.nextInt(3); i > 0; i--) {
      long from = start + (long) (random.nextDouble() * span);
      tableThrottled.add(new long[] {from, from + random.nextInt(15) * 60_000L});
    }
  }

  boolean active() {
    return clock.getAsLong() < end;
  }

  /** True with probability {@code p} while faults last. */
  boolean chance(double p) {
    return active() && random.nextDouble() < p;
  }

  boolean sinkDown() {
    return within(sinkDown) || chance(sinkFails);
  }

  boolean throttled() {
    return within(tableThrottled) ? random.nextDouble() < 0.5 : chance(throttle);
  }

  private boolean within(List<long[]> windows) {
    long now = clock.getAsLong();
    if (now >= end) {
      return false;
    }
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
        "faults until +%d min: crash at a step %.3f, within a step %.3f, after a call %.3f,"
            + " throttle %.3f, sink %.3f, duplicates %.3f, concurrent copies %.3f, cold starts %.2f,"
            + " sink down %s, table throttled %s",
        (end - Simulation.START) / 60_000,
        crashAtStep,
        crashInStep,
        crashAfterCall,
        throttle,
        sinkFails,
        duplicate,
        concurrent,
        coldStart,
        minutes(sinkDown),
        minutes(tableThrottled));
  }

  private static String minutes(List<long[]> windows) {
    List<String> texts = new ArrayList<>();
    for (long[] w : windows) {
      texts.add(
          "+" + (w[0] - Simulation.START) / 60_000 + "..+" + (w[1] - Simulation.START) / 60_000);
    }
    return texts.toString();
  }
}
