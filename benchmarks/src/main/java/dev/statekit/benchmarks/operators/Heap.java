package dev.statekit.benchmarks.operators;

import java.lang.management.ManagementFactory;

/** Heap in use after full collections, to measure what a structure retains. */
final class Heap {
  private Heap() {}

  static long used() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      System.gc();
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
