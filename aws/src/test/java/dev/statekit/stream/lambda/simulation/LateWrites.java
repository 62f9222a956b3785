package dev.statekit.stream.lambda.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A request in flight lands late ({@code -Dsimulation.lateWrites=true}; off by default, so that the
 * schedules of the seeds stay as they were). When a Lambda invocation times out or its execution
 * environment dies, the write it had sent to DynamoDB (one conditional PutItem, one
 * BatchExecuteStatement, one BatchWriteItem) is not cancelled: DynamoDB may apply it after Lambda
 * has retried the batch, or handed the shard's next batch to another environment, and after that
 * invocation read the item. The dead invocation sends nothing more: the request is held here, and
 * applied at a point the seed picks (before some later request of any invocation, or between steps
 * of the schedule), at the latest {@link #MAX_DELAY_MS} after it was sent and in any case before
 * faults end; its conditions are evaluated when it lands, against the items as they are then.
 * Decisions draw on a random of their own, so that switching the fault on changes the schedule only
 * from the first write it holds.
 */
final class LateWrites {
  static final boolean ON = Boolean.getBoolean("simulation.lateWrites");

  /** The highest chance a schedule draws that a write request is held ({@code -D...chance}). */
  static final double MAX_CHANCE =
      Double.parseDouble(System.getProperty("simulation.lateWrites.chance", "0.05"));

  /** The longest a held write waits before it lands. */
  static final long MAX_DELAY_MS = Long.getLong("simulation.lateWrites.maxDelayMs", 8_000L);

  private record Held(String what, Runnable apply, long sent, long deadline) {}

  private final Random random;
  private final LongSupplier clock;
  private final BooleanSupplier faultsActive;
  private final Trace trace;
  private final double chance;
  private final List<Held> held = new ArrayList<>();
  int heldCount;
  int landed;

  /** Checkpoints (a split's conditional PutItem) that landed late, written or not. */
  int checkpointsLanded;

  /**
   * Over every schedule of this JVM, by kind of request: held, and landed after another request.
   */
  static final java.util.Map<String, int[]> TOTALS = new java.util.TreeMap<>();

  private int requestsSince;

  LateWrites(
      long seed, double maxChance, LongSupplier clock, BooleanSupplier faultsActive, Trace trace) {
    this.random = new Random(seed ^ 0x1A7E_3217_EL);
    this.clock = clock;
    this.faultsActive = faultsActive;
    this.trace = trace;
    this.chance = 0.005 + random.nextDouble() * maxChance;
  }

  /** Whether the request {@code what} is held in flight (its invocation then dies). */
  boolean hold(String what, Runnable apply) {
    if (!faultsActive.getAsBoolean() || random.nextDouble() >= chance) {
      return false;
    }
    long now = clock.getAsLong();
    long deadline = now + 1 + (long) (random.nextDouble() * MAX_DELAY_MS);
    held.add(new Held(what, apply, now, deadline));
    synchronized (TOTALS) {
      TOTALS.computeIfAbsent(kind(what), k -> new int[2])[0]++;
    }
    heldCount++;
    requestsSince = 0;
    trace.add("crash with " + what + " in flight (lands by +" + (deadline - now) + " ms)");
    return true;
  }

  /**
   * Lands the held writes whose time has come: each with some chance, or every one past its
   * deadline, or all of them if {@code all} (faults are over).
   */
  void land(boolean all) {
    requestsSince++;
    if (held.isEmpty()) {
      return;
    }
    long now = clock.getAsLong();
    boolean quiet = !faultsActive.getAsBoolean();
    List<Held> due = new ArrayList<>();
    for (Held h : held) {
      if (all || quiet || now >= h.deadline() || random.nextInt(4) == 0) {
        due.add(h);
      }
    }
    held.removeAll(due);
    for (Held h : due) {
      landed++;
      if (h.what().startsWith("conditional PutItem of split")) {
        checkpointsLanded++;
      }
      trace.add("late: " + h.what() + " sent at +" + (h.sent() - Simulation.START) + " ms lands");
      h.apply().run();
      if (requestsSince > 0) {
        synchronized (TOTALS) {
          TOTALS.computeIfAbsent(kind(h.what()), k -> new int[2])[1]++;
        }
      }
    }
  }

  private static String kind(String what) {
    return what.replaceAll("[0-9]+.*", "").trim();
  }

  @Override
  public String toString() {
    return String.format(
        "late writes (chance %.3f): %d held, %d landed", chance, heldCount, landed);
  }
}
