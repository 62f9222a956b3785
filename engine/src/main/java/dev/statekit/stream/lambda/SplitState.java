package dev.statekit.stream.lambda;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link BatchPipeline} records about one split (a Kinesis or DynamoDB Streams shard, an SQS
 * queue) at the end of each batch, and what the scheduled tick records about its own firing (the
 * split named {@link #TICK}).
 *
 * <p>An ordered split's checkpoint is written only once the batch's outputs were delivered: its
 * {@code position} says that every record up to it was applied and its outputs delivered, and its
 * {@code firedThrough} that the windows ending up to it were delivered.
 *
 * @param split the split's name
 * @param version incremented by every write; the next write's condition
 * @param position the offset of the last record of an ordered split that a finished batch covered
 *     and delivered, or null: records at or before it are skipped
 * @param lastStart the first offset of the batch that wrote {@code position}, or null: only a batch
 *     starting there (Lambda handing that batch over again) may start at or before the position
 * @param resumes the offsets the answers to the batch that wrote the checkpoint reported failed
 *     (where Lambda resumes), empty if none: a copy of that batch may have run beside it, and
 *     Lambda goes by one of their answers, so each is a start a batch may have
 * @param watermark the split's event time: a record of this split is late for windows ending at or
 *     before it
 * @param fireWatermark the watermark windows may fire at now (for an ordered split the watermark of
 *     its last batch; for others, and for idle advances, a watermark at least one batch timeout
 *     old)
 * @param candidate a watermark that becomes the fire watermark one batch timeout after {@code
 *     candidateAt}, {@link Long#MIN_VALUE} if none
 * @param candidateAt when {@code candidate} was set, epoch ms
 * @param activeAt when the split's last batch ran, epoch ms
 * @param firedThrough every window ending at or before it was delivered, as far as this split's
 *     batches (or the tick) know
 * @param givenUp records Lambda gave up on and that were not replayed yet
 */
public record SplitState(
    String split,
    long version,
    String position,
    String lastStart,
    List<String> resumes,
    long watermark,
    long fireWatermark,
    long candidate,
    long candidateAt,
    long activeAt,
    long firedThrough,
    List<GivenUp> givenUp) {
  /** The name of the tick's own item. */
  public static final String TICK = "#tick";

  /** Copies the list. */
  public SplitState {
    Objects.requireNonNull(split, "split");
    givenUp = List.copyOf(givenUp);
    resumes = resumes == null ? List.of() : List.copyOf(resumes);
  }

  /** A split no batch has written yet. */
  public static SplitState fresh(String split) {
    return new SplitState(
        split,
        0,
        null,
        null,
        List.of(),
        Long.MIN_VALUE,
        Long.MIN_VALUE,
        Long.MIN_VALUE,
        0,
        0,
        Long.MIN_VALUE,
        List.of());
  }

  /** This state with another version. */
  public SplitState withVersion(long newVersion) {
    return copy(newVersion, givenUp);
  }

  /** This state with other ranges given up, and the next version (to write over this one). */
  public SplitState nextWithGivenUp(List<GivenUp> ranges) {
    return copy(version + 1, ranges);
  }

  private SplitState copy(long newVersion, List<GivenUp> ranges) {
    return new SplitState(
        split,
        newVersion,
        position,
        lastStart,
        resumes,
        watermark,
        fireWatermark,
        candidate,
        candidateAt,
        activeAt,
        firedThrough,
        ranges);
  }

  /** True for the tick's item, which takes no part in watermarks. */
  public boolean isTick() {
    return TICK.equals(split);
  }

  /**
   * The least watermark of the given-up records not replayed yet, {@link Long#MAX_VALUE} if none:
   * windows ending after it wait for them.
   */
  public long heldAt() {
    long held = Long.MAX_VALUE;
    for (GivenUp gap : givenUp) {
      held = Math.min(held, gap.watermark());
    }
    return held;
  }
}
