package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.Record;
import dev.statekit.stream.SourcePosition;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.lambda.internal.SourceOutcome.Routed;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The records of a batch that are new to its split and did not fail: on an ordered split those
 * after its checkpoint (a replay takes them all), on an unordered one those without a receipt,
 * whose outputs go out again instead.
 */
final class BatchRecords {
  private final SourceBatch batch;
  final List<SourceOutcome> outcomes = new ArrayList<>();
  final List<String> failedOffsets = new ArrayList<>();

  /** Outputs of messages that had a receipt, delivered again. */
  final List<Routed> receipted = new ArrayList<>();

  final int covered;
  String failure;
  private final Routes routes;
  private final String pipeline;

  /**
   * @param position skip ordered records at or before it (null: none)
   * @param receipts the receipts of messages of an unordered split, by id
   */
  BatchRecords(
      SourceBatch batch,
      List<SourceOutcome> all,
      String position,
      Map<String, byte[]> receipts,
      Routes routes,
      String pipeline) {
    this.batch = batch;
    this.routes = routes;
    this.pipeline = pipeline;
    int skipped = 0;
    Set<String> failedGroups = new HashSet<>();
    // Groups with a message this batch applies: a later one of theirs found receipted (its receipt
    // written while an earlier one's was not, in part or by a copy) would have its outputs go out
    // first, since receipted outputs precede the keys' deliveries.
    Set<String> appliedGroups = new HashSet<>();
    for (SourceOutcome outcome : all) {
      if (batch.ordered()
          && (outcome.untaken || (outcome.failed() && covered(outcome.offset, position)))) {
        // Lambda resumes at the record answered: one its checkpoint covers would be refused as a
        // batch starting inside it, and none answered would skip the records not run (a whole
        // batch handed over again after a lost answer stops there, at its deadline or a failure).
        String resume = firstAfter(outcome.index, position);
        if (resume != null) {
          failedOffsets.add(resume);
          failure =
              outcome.untaken ? BatchDeadline.why(resume, batch.split(), true) : outcome.failure;
        }
        break;
      }
      if (batch.ordered() && covered(outcome.offset, position)) {
        skipped++;
        continue;
      }
      String group = group(outcome.index);
      if (group != null && failedGroups.contains(group)) {
        // Behind a message of its group that goes back: even a kept result waits, so that the
        // group's results go out in its order.
        failedOffsets.add(outcome.offset);
        continue;
      }
      byte[] receipt = batch.ordered() ? null : receipts.get(outcome.offset);
      if (receipt != null && group != null && appliedGroups.contains(group)) {
        // Its result waits for a batch where the group's earlier messages are receipted too.
        failedOffsets.add(outcome.offset);
        failedGroups.add(group);
        continue;
      }
      if (receipt != null) {
        String missing = redeliver(outcome.offset, receipt);
        if (missing == null) {
          skipped++;
        } else {
          failedOffsets.add(outcome.offset);
          because(missing);
          if (group != null) {
            failedGroups.add(group);
          }
        }
        continue;
      }
      if (outcome.failed()) {
        failedOffsets.add(outcome.offset);
        because(outcome.failure);
        if (batch.ordered()) {
          break;
        }
        if (group != null) {
          failedGroups.add(group);
        }
        continue;
      }
      outcomes.add(outcome);
      if (group != null) {
        appliedGroups.add(group);
      }
    }
    this.covered = skipped;
  }

  /**
   * Notes why records of an unordered batch go back: the batch's failure is the first real one,
   * before any reason of records that only come again later ("nothing failed"). The consumers log a
   * batch whose failure says nothing failed at debug level only ({@code FailedRecordsLog}), so a
   * later record's wait must not hide an earlier record's error.
   */
  private void because(String why) {
    if (failure == null || (onlyWaits(failure) && !onlyWaits(why))) {
      failure = why;
    }
  }

  /** Whether {@code why} is the reason of records that come again with nothing failed. */
  private static boolean onlyWaits(String why) {
    return why != null && why.endsWith(BatchResult.NOTHING_FAILED);
  }

  /** Whether the checkpoint at {@code position} (null: the split's start) covers {@code offset}. */
  private static boolean covered(String offset, String position) {
    return position != null && SourcePosition.compareOffsets(offset, position) <= 0;
  }

  /**
   * The offset of the first record of the batch from record {@code index} on that lies after {@code
   * position} (null: the split's start), or null if there is none.
   */
  private String firstAfter(int index, String position) {
    List<Record<byte[]>> records = batch.records();
    for (int i = index; i < records.size(); i++) {
      String offset = records.get(i).position().offset();
      if (position == null || SourcePosition.compareOffsets(offset, position) > 0) {
        return offset;
      }
    }
    return null;
  }

  /**
   * The records from source record {@code source} on are not taken: the keyed pass stopped there at
   * the batch's deadline. They go back unapplied, on a shard as the first of them, in a queue each
   * of them (every message after it, so its order group's later messages too).
   */
  void cutAt(int source) {
    int at = 0;
    while (at < outcomes.size() && outcomes.get(at).index < source) {
      at++;
    }
    if (at == outcomes.size()) {
      throw new IllegalStateException("No record " + source + " in the batch");
    }
    List<SourceOutcome> back = outcomes.subList(at, outcomes.size());
    String first = back.get(0).offset;
    if (batch.ordered()) {
      // Before any failure the stateless pass found, which is among the records not taken.
      failedOffsets.clear();
      failure = BatchDeadline.why(first, batch.split(), true);
      failedOffsets.add(first);
    } else {
      because(BatchDeadline.why(first, batch.split(), false));
      Set<String> known = new HashSet<>(failedOffsets);
      for (SourceOutcome outcome : back) {
        if (known.add(outcome.offset)) {
          failedOffsets.add(outcome.offset);
        }
      }
    }
    back.clear();
  }

  /**
   * Messages {@code ids} turned out applied by a copy of them while this batch ran: they leave the
   * batch's records as messages with a receipt do, their receipts' outputs delivered again.
   */
  void receiptedMeanwhile(Set<String> ids, Map<String, byte[]> receipts) {
    if (ids.isEmpty()) {
      return;
    }
    List<SourceOutcome> meanwhile = new ArrayList<>();
    for (SourceOutcome outcome : outcomes) {
      if (ids.contains(outcome.offset)) {
        meanwhile.add(outcome);
      }
    }
    outcomes.removeIf(outcome -> ids.contains(outcome.offset));
    // In batch order: a message behind one of its group that goes back goes back too, its kept
    // results waiting, so that the group's results go out in its order.
    Set<String> backGroups = groupsOf(failedOffsets);
    for (SourceOutcome outcome : meanwhile) {
      String group = group(outcome.index);
      if (group != null && backGroups.contains(group) && failedBefore(group, outcome.index)) {
        failedOffsets.add(outcome.offset);
        continue;
      }
      if (group != null && appliedBefore(group, outcome.index)) {
        // As in the constructor: its result waits for the group's earlier ones.
        failedOffsets.add(outcome.offset);
        backGroups.add(group);
        sendBackAfter(outcome, group);
        continue;
      }
      String missing = redeliver(outcome.offset, receipts.get(outcome.offset));
      if (missing != null) {
        failedOffsets.add(outcome.offset);
        because(missing);
        if (group != null) {
          backGroups.add(group);
          sendBackAfter(outcome, group);
        }
      }
    }
  }

  /**
   * The messages after {@code outcome} of its order group go back with it, as after a failed one.
   */
  private void sendBackAfter(SourceOutcome outcome, String group) {
    outcomes.removeIf(
        later -> {
          boolean back = later.index > outcome.index && group.equals(group(later.index));
          if (back) {
            failedOffsets.add(later.offset);
          }
          return back;
        });
  }

  /** True if this batch applies a message of {@code group} before message {@code index}. */
  private boolean appliedBefore(String group, int index) {
    for (SourceOutcome applied : outcomes) {
      if (applied.index < index && group.equals(group(applied.index))) {
        return true;
      }
    }
    return false;
  }

  /** The order groups of messages {@code offsets}. */
  private Set<String> groupsOf(List<String> offsets) {
    Set<String> groups = new HashSet<>();
    if (offsets.isEmpty()) {
      return groups;
    }
    Set<String> wanted = new HashSet<>(offsets);
    List<Record<byte[]>> records = batch.records();
    for (int i = 0; i < records.size(); i++) {
      String group = group(i);
      if (group != null && wanted.contains(records.get(i).position().offset())) {
        groups.add(group);
      }
    }
    return groups;
  }

  /** True if a message of {@code group} before message {@code index} goes back. */
  private boolean failedBefore(String group, int index) {
    Set<String> failed = new HashSet<>(failedOffsets);
    for (int i = 0; i < index; i++) {
      if (group.equals(group(i)) && failed.contains(batch.records().get(i).position().offset())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The failed messages of an unordered split that have an order group: a key that applied one
   * before it went back keeps its results until it comes again, so that they go out after those of
   * the messages before it in its group.
   */
  Set<String> failedInGroups() {
    if (failedOffsets.isEmpty()) {
      return Set.of();
    }
    Set<String> failed = new HashSet<>(failedOffsets);
    Set<String> grouped = new HashSet<>();
    List<Record<byte[]>> records = batch.records();
    for (int i = 0; i < records.size(); i++) {
      String offset = records.get(i).position().offset();
      if (failed.contains(offset) && group(i) != null) {
        grouped.add(offset);
      }
    }
    return grouped;
  }

  /**
   * Delivers again the outputs message {@code id}'s receipt keeps; if one names an output this
   * deployment lacks, delivers none and says why the message goes back: it alone, not its batch,
   * waits for a deployment with that output.
   */
  private String redeliver(String id, byte[] receipt) {
    try {
      receipted.addAll(StoredOutput.routedAll(Receipts.decode(receipt), routes, pipeline));
      return null;
    } catch (MissingOutputException e) {
      return "Message " + id + " of " + batch.split() + " was applied before: " + e.getMessage();
    }
  }

  /** The order group of source record {@code index}, or null. */
  String group(int index) {
    return batch.records().get(index).headers().get(SourceBatch.ORDER_GROUP);
  }

  /**
   * Records {@code sources} go back unapplied, for {@code why}: on a shard the first of them and
   * every record after it; in a queue each of them and the messages after it of its order group.
   */
  void handBack(List<Integer> sources, String why, boolean ordered) {
    if (!ordered) {
      // A message the deadline's cut sent back already (one a key found pending under an egress
      // the deployment lacks, past the cut) goes back once; the pass runs again without it.
      Set<Integer> present = new HashSet<>();
      outcomes.forEach(outcome -> present.add(outcome.index));
      sources = sources.stream().filter(present::contains).toList();
      if (sources.isEmpty()) {
        return;
      }
    }
    if (ordered || sources.size() == 1) {
      fail(sources.get(0), why, ordered);
      return;
    }
    because(why);
    Set<Integer> back = new HashSet<>(sources);
    Set<String> groups = new HashSet<>();
    List<SourceOutcome> kept = new ArrayList<>(outcomes.size());
    for (SourceOutcome outcome : outcomes) {
      String group = group(outcome.index);
      if (back.contains(outcome.index) || (group != null && groups.contains(group))) {
        failedOffsets.add(outcome.offset);
        if (group != null) {
          groups.add(group);
        }
      } else {
        kept.add(outcome);
      }
    }
    outcomes.clear();
    outcomes.addAll(kept);
  }

  /**
   * Record {@code source} failed in the keyed stage: it retries, and so do the records after it (on
   * a shard all of them, in a queue those of its order group).
   */
  private void fail(int source, String why, boolean ordered) {
    if (ordered) {
      // The shard resumes at this record, before any other that failed: its reason is the batch's.
      failure = why;
    } else {
      because(why);
    }
    String group = group(source);
    for (int i = 0; i < outcomes.size(); i++) {
      if (outcomes.get(i).index == source) {
        if (ordered) {
          failedOffsets.clear();
        }
        List<SourceOutcome> after = outcomes.subList(i, outcomes.size());
        for (SourceOutcome later : List.copyOf(after)) {
          boolean same = later.index == source;
          if (ordered || same || (group != null && group.equals(group(later.index)))) {
            after.remove(later);
            if (same || !ordered) {
              failedOffsets.add(later.offset);
            }
          }
        }
        return;
      }
    }
    throw new IllegalStateException("No record " + source + " in the batch");
  }

  List<KeyedInput> inputs() {
    int size = 0;
    for (SourceOutcome o : outcomes) {
      size += o.keyed.size();
    }
    List<KeyedInput> inputs = new ArrayList<>(size);
    outcomes.forEach(o -> inputs.addAll(o.keyed));
    return inputs;
  }

  List<Routed> outputs() {
    int size = 0;
    for (SourceOutcome o : outcomes) {
      size += o.outputs.size();
    }
    List<Routed> outputs = new ArrayList<>(size);
    outcomes.forEach(o -> outputs.addAll(o.outputs));
    return outputs;
  }

  String firstOffset() {
    return outcomes.isEmpty()
        ? (failedOffsets.isEmpty() ? null : failedOffsets.get(0))
        : outcomes.get(0).offset;
  }

  String lastOffset() {
    return outcomes.isEmpty() ? null : outcomes.get(outcomes.size() - 1).offset;
  }

  long maxTimestamp() {
    long max = Long.MIN_VALUE;
    for (SourceOutcome o : outcomes) {
      max = Math.max(max, o.maxTimestamp);
    }
    return max;
  }
}
