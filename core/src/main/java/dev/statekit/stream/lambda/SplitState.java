package dev.statekit.stream.lambda;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link BatchPipeline} records about one split (a Kinesis or DynamoDB Streams shard, an SQS
 * queue) at the end of each batch, and what the scheduled tick records about its own firing (the
 * split named {@link #TICK}).
 *
 * @param split the split's name
 * @param version incremented by every write; the next write's condition
 * @param position the offset of the last record of an ordered split that a finished batch covered,
 *     or null: records at or before it are skipped
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
 * @param pendingThrough windows up to this were fired by the split's last batch and are confirmed
 *     delivered once its next batch comes; {@link Long#MIN_VALUE} if none
 * @param pendingTimers the timer items that fire covered whole, deleted once it is confirmed
 */
public record SplitState(
    String split,
    long version,
    String position,
    long watermark,
    long fireWatermark,
    long candidate,
    long candidateAt,
    long activeAt,
    long firedThrough,
    long pendingThrough,
    List<String> pendingTimers) {
  /** The name of the tick's own item. */
  public static final String TICK = "#tick";

  /** Copies the list. */
  public SplitState {
    Objects.requireNonNull(split, "split");
    pendingTimers = List.copyOf(pendingTimers);
  }

  /** A split no batch has written yet. */
  public static SplitState fresh(String split) {
    return new SplitState(
        split,
        0,
        null,
        Long.MIN_VALUE,
        Long.MIN_VALUE,
        Long.MIN_VALUE,
        0,
        0,
        Long.MIN_VALUE,
        Long.MIN_VALUE,
        List.of());
  }

  /** This state with another version. */
  public SplitState withVersion(long newVersion) {
    return new SplitState(
        split,
        newVersion,
        position,
        watermark,
        fireWatermark,
        candidate,
        candidateAt,
        activeAt,
        firedThrough,
        pendingThrough,
        pendingTimers);
  }

  /** True for the tick's item, which takes no part in watermarks. */
  public boolean isTick() {
    return TICK.equals(split);
  }
}
