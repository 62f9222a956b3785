package dev.statekit.stream.lambda.simulation;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;

/** The last events of a schedule, printed with a failing seed. */
final class Trace {
  private static final int KEEP = Integer.getInteger("simulation.trace", 80);
  private String last;
  private int repeats;
  private final Deque<String> lines = new ArrayDeque<>();
  private final LongSupplier clock;
  private long count;

  Trace(LongSupplier clock) {
    this.clock = clock;
  }

  void add(String line) {
    count++;
    if (line.equals(last)) {
      repeats++;
      return; // the same again (an idle tick): counted, not kept
    }
    if (repeats > 0) {
      lines.addLast("       (the line before " + repeats + " times more)");
      repeats = 0;
    }
    last = line;
    if (lines.size() == KEEP) {
      lines.removeFirst();
    }
    long at = clock.getAsLong() - Simulation.START;
    lines.addLast(
        String.format("%6d %4d:%02d.%03d %s", count, at / 60_000, at / 1000 % 60, at % 1000, line));
  }

  @Override
  public String toString() {
    return String.join("\n", lines);
  }
}
