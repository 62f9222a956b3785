package dev.statekit.benchmarks.timers;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sink of fired delayed messages: records, per delay, how late each came (delivered minus due,
 * in ms). A record delivered twice (a sink may see a repeat) counts once.
 */
final class Lateness implements EgressSink {
  private final Map<Long, List<Long>> byDelay = new HashMap<>();
  private final java.util.Set<String> seen = new java.util.HashSet<>();

  @Override
  public synchronized void deliver(List<EgressRecord> records) {
    long now = System.currentTimeMillis();
    for (EgressRecord record : records) {
      if (!seen.add(record.id())) {
        continue;
      }
      String[] parts = record.text().orElseThrow().split(":");
      byDelay
          .computeIfAbsent(Long.parseLong(parts[0]), d -> new ArrayList<>())
          .add(now - Long.parseLong(parts[1]));
    }
  }

  /** How many fired, over all delays. */
  synchronized int count() {
    return byDelay.values().stream().mapToInt(List::size).sum();
  }

  /** The latenesses of one delay, sorted. */
  synchronized List<Long> of(long delayMillis) {
    List<Long> sorted = new ArrayList<>(byDelay.getOrDefault(delayMillis, List.of()));
    sorted.sort(null);
    return sorted;
  }

  /** The {@code p}-th percentile (nearest rank) of sorted values; -1 if there are none. */
  static long percentile(List<Long> sorted, double p) {
    if (sorted.isEmpty()) {
      return -1;
    }
    int rank = (int) Math.ceil(p / 100 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }
}
