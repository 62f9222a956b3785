package dev.statekit.stream.lambda.simulation;

import dev.statekit.stream.SourcePosition;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.lambda.SourceBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Lambda's event source mapping for one Kinesis or DynamoDB Streams shard: records in order, one
 * batch at a time (BisectBatchOnFunctionError off); a batch that throws is retried whole, one that
 * answers failures is retried from its first failed record; after MaximumRetryAttempts retries the
 * batch is skipped and its range sent to the on-failure destination; a child shard is read only
 * once its parent is drained. With ParallelizationFactor above 1 the shard's records are spread
 * over that many lanes by partition key, each with its own batches, in order per key.
 */
final class ShardMapping {
  /** A record of the shard. */
  record Rec(String sequence, String key, byte[] data, long at) {}

  /** A batch the mapping gave up on: the on-failure destination's record. */
  record Skipped(String split, String first, String last) {}

  private final String split;
  private final boolean changes;
  private final int maxRetries;
  private final int batchSize;
  private final Random random;
  private final ShardMapping parent;
  private final List<Lane> lanes = new ArrayList<>();
  private final List<Rec> records = new ArrayList<>();
  final List<Skipped> onFailure = new ArrayList<>();
  final List<Rec> expired = new ArrayList<>();
  boolean closed;

  /** How long the shard keeps a record: 24 hours for both Kinesis (by default) and DynamoDB. */
  static final long RETENTION_MS = 24 * 3600_000L;

  private final class Lane {
    int next;
    List<Rec> batch;
    int attempts;
    long retryAt;
    final List<Rec> mine = new ArrayList<>();
  }

  ShardMapping(
      String split,
      boolean changes,
      int parallelization,
      int maxRetries,
      int batchSize,
      ShardMapping parent,
      Random random) {
    this.split = split;
    this.changes = changes;
    this.maxRetries = maxRetries;
    this.batchSize = batchSize;
    this.parent = parent;
    this.random = random;
    for (int i = 0; i < parallelization; i++) {
      lanes.add(new Lane());
    }
  }

  String split() {
    return split;
  }

  void put(Rec record) {
    if (closed) {
      throw new IllegalStateException("shard " + split + " is closed");
    }
    records.add(record);
    lanes.get(Math.floorMod(record.key().hashCode(), lanes.size())).mine.add(record);
  }

  List<Rec> records() {
    return records;
  }

  /** Every record handed over and answered, or given up. */
  boolean drained() {
    return lanes.stream().allMatch(l -> l.batch == null && l.next >= l.mine.size());
  }

  /** The earliest retry of a batch that failed, or Long.MAX_VALUE. */
  long nextRetry() {
    long next = Long.MAX_VALUE;
    for (Lane lane : lanes) {
      if (lane.batch != null) {
        next = Math.min(next, lane.retryAt);
      }
    }
    return next;
  }

  boolean ready(long now) {
    if (parent != null && !(parent.closed && parent.drained())) {
      return false;
    }
    return lanes.stream()
        .anyMatch(l -> l.batch != null ? now >= l.retryAt : l.next < l.mine.size());
  }

  /** One round: every lane with a batch due invokes, at once if there are several. */
  void step(Invoker invoker, long now, Faults faults, Trace trace) {
    List<Lane> due = new ArrayList<>();
    for (Lane lane : lanes) {
      while (lane.batch == null
          && lane.next < lane.mine.size()
          && lane.mine.get(lane.next).at() < now - RETENTION_MS) {
        expired.add(lane.mine.get(lane.next++)); // trimmed before it was read
      }
      if (lane.batch == null && lane.next < lane.mine.size()) {
        int size = 1 + random.nextInt(batchSize);
        lane.batch =
            new ArrayList<>(
                lane.mine.subList(lane.next, Math.min(lane.mine.size(), lane.next + size)));
        lane.attempts = 0;
      }
      if (lane.batch != null && now >= lane.retryAt) {
        due.add(lane);
      }
    }
    if (due.isEmpty()) {
      return;
    }
    List<SourceBatch> batches = new ArrayList<>();
    due.forEach(lane -> batches.add(batch(lane.batch)));
    boolean copy = due.size() == 1 && faults.chance(faults.concurrent);
    List<Invoker.Outcome> outcomes;
    if (due.size() > 1 || copy) {
      if (copy) {
        batches.add(batches.get(0));
      }
      outcomes = invoker.together(batches);
    } else {
      outcomes = List.of(invoker.invoke(batches.get(0)));
    }
    for (int i = 0; i < due.size(); i++) {
      Lane lane = due.get(i);
      Invoker.Outcome outcome = outcomes.get(i);
      trace.add(
          split
              + " batch "
              + lane.batch.get(0).sequence()
              + ".."
              + lane.batch.get(lane.batch.size() - 1).sequence()
              + " ("
              + lane.batch.size()
              + ") attempt "
              + (lane.attempts + 1)
              + ": "
              + (outcome.error() != null
                  ? outcome.error().getMessage()
                  : "failed " + outcome.failed()));
      answered(lane, outcome, now, faults, invoker);
    }
  }

  private void answered(
      Lane lane, Invoker.Outcome outcome, long now, Faults faults, Invoker invoker) {
    if (outcome.ok()) {
      if (faults.chance(faults.duplicate)) {
        invoker.invoke(batch(lane.batch)); // handed over again after it succeeded
      }
      lane.next += lane.batch.size();
      lane.batch = null;
      return;
    }
    if (outcome.error() == null) {
      int from = 0;
      String lowest = lowest(outcome.failed());
      while (from < lane.batch.size() && !lane.batch.get(from).sequence().equals(lowest)) {
        from++;
      }
      lane.next += from; // Lambda resumes at the first failed record
      lane.batch = new ArrayList<>(lane.batch.subList(from, lane.batch.size()));
    }
    lane.attempts++;
    if (maxRetries >= 0 && lane.attempts > maxRetries) {
      onFailure.add(
          new Skipped(
              split,
              lane.batch.get(0).sequence(),
              lane.batch.get(lane.batch.size() - 1).sequence()));
      lane.next += lane.batch.size();
      lane.batch = null;
      return;
    }
    lane.retryAt = now + Math.min(60_000L, 1000L << Math.min(lane.attempts, 10));
  }

  private static String lowest(List<String> offsets) {
    String lowest = offsets.get(0);
    for (String offset : offsets) {
      if (SourcePosition.compareOffsets(offset, lowest) < 0) {
        lowest = offset;
      }
    }
    return lowest;
  }

  /** The records of {@code skipped}, as a batch of the split (for a replay). */
  SourceBatch range(String after, String before) {
    List<Rec> in = new ArrayList<>();
    for (Rec rec : records) {
      boolean afterOk = after == null || SourcePosition.compareOffsets(rec.sequence(), after) > 0;
      if (afterOk && SourcePosition.compareOffsets(rec.sequence(), before) < 0) {
        in.add(rec);
      }
    }
    return batch(in);
  }

  /** The records from {@code first} to {@code last}, both included, as one batch. */
  SourceBatch between(String first, String last) {
    List<Rec> in = new ArrayList<>();
    for (Rec rec : records) {
      if (SourcePosition.compareOffsets(rec.sequence(), first) >= 0
          && SourcePosition.compareOffsets(rec.sequence(), last) <= 0) {
        in.add(rec);
      }
    }
    return batch(in);
  }

  private SourceBatch batch(List<Rec> recs) {
    SourceBatch.Builder batch = changes ? SourceBatch.unordered(split) : SourceBatch.ordered(split);
    for (Rec rec : recs) {
      Map<String, String> headers =
          changes
              ? Map.of(SourceBatch.ORDER_GROUP, rec.key())
              : Map.of(SourceBatches.PARTITION_KEY, rec.key());
      batch.add(rec.sequence(), rec.at(), rec.data(), headers);
    }
    return batch.build();
  }
}
