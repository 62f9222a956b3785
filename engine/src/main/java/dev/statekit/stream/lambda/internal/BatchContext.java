package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.SourcePosition;
import dev.statekit.stream.lambda.GivenUp;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * What the keyed work of one invocation depends on, fixed once the splits are read.
 *
 * @param pipeline the pipeline's name
 * @param shape the pipeline's plan
 * @param capture where outputs go
 * @param settings how the pipeline runs
 * @param split the batch's split (the tick's name for the tick)
 * @param ordered whether the split is ordered
 * @param changes whether the batch is a DynamoDB stream's ({@code SourceBatch#changes}): unordered,
 *     but kept by no redrive policy
 * @param firstOffset the offset of the batch's first record not covered before, or null
 * @param offsets the offsets of the batch's records (unordered splits: a message that comes again)
 * @param lateness records are late for windows ending at or before this
 * @param firedThrough windows ending at or before this were delivered: their state can go
 * @param fireUpTo windows ending after {@code firedThrough} and at or before this fire now
 * @param positions each ordered split's position
 * @param givenUp every range given up and not replayed yet (this batch's new one included)
 * @param replaying the given-up range this batch replays, or null
 * @param receipted whether a message (split, id) of an unordered split is known to have a receipt
 * @param now the wall clock, epoch ms
 * @param lateAfter for a replay, the attempts recorded in its range: a record after one of them is
 *     late against the windows that attempt may have fired (up to its watermark), as it would have
 *     been had the attempt checkpointed
 */
record BatchContext(
    String pipeline,
    PlanShape shape,
    Capture capture,
    BatchSettings settings,
    String split,
    boolean ordered,
    boolean changes,
    String firstOffset,
    Set<String> offsets,
    long lateness,
    long firedThrough,
    long fireUpTo,
    Map<String, String> positions,
    List<GivenUp> givenUp,
    GivenUp replaying,
    BiPredicate<String, String> receipted,
    long now,
    List<dev.statekit.stream.lambda.Attempt> lateAfter) {
  /**
   * Whether outputs too large for their key's item are set aside rather than sent back with their
   * record: on a shard, or on a DynamoDB stream, which no redrive policy keeps, with a place for
   * them.
   */
  boolean setsAside() {
    return (ordered || changes) && shape.routes().refused() >= 0;
  }

  boolean fires() {
    return shape.windowed() && fireUpTo > firedThrough;
  }

  /**
   * What the record at {@code offset} is late against: {@link #lateness}, an attempt before it, or
   * an attempt of later records made before the record was first tried.
   */
  long latenessOf(String offset) {
    // When the record was first tried: an attempt of later records before that ran ahead of it,
    // as batches of one shard do when they interleave (ParallelizationFactor above 1), and may
    // have fired its windows too. In order (one batch at a time) none does.
    long tried = Long.MAX_VALUE;
    for (var attempt : lateAfter) {
      if (SourcePosition.compareOffsets(attempt.first(), offset) <= 0
          && SourcePosition.compareOffsets(offset, attempt.last()) <= 0) {
        tried = Math.min(tried, attempt.at());
      }
    }
    long late = lateness;
    for (var attempt : lateAfter) {
      if (SourcePosition.compareOffsets(attempt.last(), offset) < 0
          || (tried != Long.MAX_VALUE
              && attempt.at() < tried
              && SourcePosition.compareOffsets(attempt.first(), offset) > 0)) {
        late = Math.max(late, attempt.watermark());
      }
    }
    return late;
  }
}
