package dev.statekit.egress;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps records in memory, once per id (a repeated delivery replaces nothing), and counts every
 * delivery: the sink of the embedded runtime and of tests.
 */
public final class CollectingEgressSink implements EgressSink {
  private final Map<String, EgressRecord> records = new LinkedHashMap<>();
  private final EgressSink checks;
  private long deliveries;

  /** An empty sink that takes every record. */
  public CollectingEgressSink() {
    this.checks = null;
  }

  /**
   * An empty sink that refuses what {@code checks} refuses ({@link EgressSink#check}), as the sink
   * it stands in for would: a record past an SQS queue's size, say. A call holding a refused record
   * collects none of it.
   */
  public CollectingEgressSink(EgressSink checks) {
    this.checks = java.util.Objects.requireNonNull(checks, "checks");
  }

  @Override
  public void check(EgressRecord record) {
    if (checks != null) {
      checks.check(record);
    }
  }

  @Override
  public synchronized void deliver(List<EgressRecord> delivered) {
    delivered.forEach(this::check);
    for (EgressRecord record : delivered) {
      deliveries++;
      records.putIfAbsent(record.id(), record);
    }
  }

  /** The records, once each, in the order they first arrived. */
  public synchronized List<EgressRecord> records() {
    return new ArrayList<>(records.values());
  }

  /** The records' text values ({@link EgressRecord#textOrBase64()}), in arrival order. */
  public synchronized List<String> texts() {
    return records.values().stream().map(EgressRecord::textOrBase64).toList();
  }

  /** How many records were delivered, repeats included. */
  public synchronized long deliveries() {
    return deliveries;
  }

  /** Forgets everything. */
  public synchronized void clear() {
    records.clear();
    deliveries = 0;
  }

  @Override
  public String toString() {
    return "CollectingEgressSink";
  }
}
