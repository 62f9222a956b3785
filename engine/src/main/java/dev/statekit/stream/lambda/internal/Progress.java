package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.lambda.GivenUp;
import dev.statekit.stream.lambda.SplitState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The splits' states as one invocation read them, and the rules that turn them into the pipeline's
 * event time.
 *
 * <p>A window may fire once the fire watermark of every split has passed its end. An ordered
 * split's fire watermark is its watermark as of its last batch: that batch wrote its keys and
 * timers before its checkpoint, and no other batch of the split runs meanwhile. Any other advance
 * (an unordered split's, whose batches run side by side; an idle split's, moved on by the tick) is
 * first a candidate and becomes the fire watermark one batch timeout later, when every batch that
 * read the older watermark has ended, its writes done. A split with records Lambda gave up on holds
 * the pipeline's fire watermark at the watermark it had then, until they are replayed.
 */
final class Progress {
  private final Map<String, SplitState> splits = new HashMap<>();
  private final long now;
  private final long batchTimeout;

  Progress(List<SplitState> read, long now, long batchTimeout) {
    read.forEach(split -> splits.put(split.split(), split));
    this.now = now;
    this.batchTimeout = batchTimeout;
  }

  SplitState split(String name) {
    SplitState split = splits.get(name);
    return split == null ? SplitState.fresh(name) : split;
  }

  List<SplitState> all() {
    return List.copyOf(splits.values());
  }

  /** Windows ending at or before this were delivered (as far as the splits and tick record). */
  long firedThrough() {
    long fired = Long.MIN_VALUE;
    for (SplitState split : splits.values()) {
      fired = Math.max(fired, split.firedThrough());
    }
    return fired;
  }

  /** Each ordered split's position, for forgetting marks that fence nothing any more. */
  Map<String, String> positions() {
    Map<String, String> positions = new HashMap<>();
    splits.values().stream()
        .filter(split -> split.position() != null)
        .forEach(split -> positions.put(split.split(), split.position()));
    return positions;
  }

  /**
   * The pipeline's fire watermark: the least over the splits, {@code self} counted at {@code
   * selfWatermark} (its batch just now), {@link Long#MIN_VALUE} if there is no split.
   */
  long pipelineWatermark(String self, long selfWatermark) {
    long least = self == null ? Long.MAX_VALUE : selfWatermark;
    boolean any = self != null;
    for (SplitState split : splits.values()) {
      if (split.isTick()) {
        continue;
      }
      if (split.split().equals(self)) {
        least = Math.min(least, split.heldAt());
      } else {
        least = Math.min(least, Math.min(split.heldAt(), fireWatermark(split, now, batchTimeout)));
        any = true;
      }
    }
    return any ? least : Long.MIN_VALUE;
  }

  /** Every range given up and not replayed yet, of every split. */
  List<GivenUp> givenUp() {
    List<GivenUp> all = new ArrayList<>();
    splits.values().forEach(split -> all.addAll(split.givenUp()));
    return all;
  }

  /** What a split's watermark may fire windows at, at {@code now}. */
  static long fireWatermark(SplitState split, long now, long batchTimeout) {
    boolean ripe = split.candidate() != Long.MIN_VALUE && split.candidateAt() + batchTimeout <= now;
    return ripe ? Math.max(split.fireWatermark(), split.candidate()) : split.fireWatermark();
  }

  /**
   * What the split's records are late against: its watermark, an idle advance of it, or the fire
   * watermark such an advance became (windows up to it may be firing: a tick that makes a candidate
   * the fire watermark clears it when nothing moved since).
   */
  static long lateness(SplitState split) {
    return Math.max(split.watermark(), Math.max(split.candidate(), split.fireWatermark()));
  }

  /**
   * {@code split} with its records late against {@code watermark} at least (what attempts given up
   * on may have fired at); its fire watermark stays.
   */
  static SplitState lateAgainst(SplitState split, long watermark) {
    if (watermark <= split.watermark()) {
      return split;
    }
    return new SplitState(
        split.split(),
        split.version(),
        split.position(),
        split.lastStart(),
        split.resumes(),
        watermark,
        split.fireWatermark(),
        split.candidate(),
        split.candidateAt(),
        split.activeAt(),
        split.firedThrough(),
        split.givenUp());
  }

  /**
   * The split after an ordered batch that delivered its outputs: its position, the first offset of
   * the batch ({@code lastStart}), where Lambda may resume, its watermark (the fire watermark moves
   * at once: an idle candidate is below it, the batch having been late against it), the windows it
   * delivered, and the ranges given up.
   */
  static SplitState afterOrderedBatch(
      SplitState old,
      String position,
      String lastStart,
      List<String> resumes,
      long watermark,
      long now,
      long firedThrough,
      List<GivenUp> givenUp) {
    long candidate = old.candidate() > watermark ? old.candidate() : Long.MIN_VALUE;
    return new SplitState(
        old.split(),
        old.version() + 1,
        position,
        lastStart,
        resumes,
        watermark,
        watermark,
        candidate,
        candidate == Long.MIN_VALUE ? 0 : old.candidateAt(),
        now,
        Math.max(old.firedThrough(), firedThrough),
        givenUp);
  }

  /**
   * The split after a batch that replayed {@code gap}: it no longer holds windows back, its
   * watermark takes the replayed records in (a shard whose every batch was given up has no other),
   * and a range that began at the position (the shard's last batches were given up) moves it to its
   * end, so that the attempts in it are behind the checkpoint.
   */
  static SplitState afterReplay(SplitState old, GivenUp gap, long watermark, long now) {
    List<GivenUp> left = new ArrayList<>(old.givenUp());
    left.removeIf(g -> g.before().equals(gap.before()));
    String position = old.position();
    if (java.util.Objects.equals(position, gap.after())) {
      position =
          new java.math.BigInteger(gap.before()).subtract(java.math.BigInteger.ONE).toString();
    }
    return new SplitState(
        old.split(),
        old.version() + 1,
        position,
        old.lastStart(),
        old.resumes(),
        Math.max(old.watermark(), watermark),
        Math.max(old.fireWatermark(), watermark),
        old.candidate(),
        old.candidateAt(),
        // Its records count as the shard's latest: the shard's idle time starts again.
        Math.max(old.activeAt(), now),
        old.firedThrough(),
        left);
  }

  /** The split after an unordered batch: the watermark rises now, the fire watermark later. */
  static SplitState afterUnorderedBatch(
      SplitState old, long watermark, long now, long batchTimeout) {
    long merged = Math.max(old.watermark(), watermark);
    SplitState moved =
        new SplitState(
            old.split(),
            old.version() + 1,
            old.position(),
            old.lastStart(),
            old.resumes(),
            merged,
            old.fireWatermark(),
            old.candidate(),
            old.candidateAt(),
            // Its last batch only rises: a batch that started earlier may write later.
            Math.max(old.activeAt(), now),
            old.firedThrough(),
            old.givenUp());
    return propose(moved, merged, now, batchTimeout);
  }

  /**
   * {@code split} with a ripe candidate made its fire watermark, and {@code watermark} proposed as
   * the next candidate if none is waiting. Keeps the version.
   */
  static SplitState propose(SplitState split, long watermark, long now, long batchTimeout) {
    long fire = fireWatermark(split, now, batchTimeout);
    boolean waiting = split.candidate() != Long.MIN_VALUE && fire < split.candidate();
    long candidate = split.candidate();
    long candidateAt = split.candidateAt();
    if (!waiting) {
      candidate = watermark > fire ? watermark : Long.MIN_VALUE;
      candidateAt = candidate == Long.MIN_VALUE ? 0 : now;
    }
    return new SplitState(
        split.split(),
        split.version(),
        split.position(),
        split.lastStart(),
        split.resumes(),
        split.watermark(),
        fire,
        candidate,
        candidateAt,
        split.activeAt(),
        split.firedThrough(),
        split.givenUp());
  }
}
