package dev.statekit.stream.lambda;

import java.util.Objects;

/**
 * Records of an ordered split that Lambda gave up on (after the event source mapping's {@code
 * MaximumRetryAttempts}) and moved past: every record after {@code after} and before {@code
 * before}. The pipeline notices it when the next batch comes from beyond a batch it saw attempted
 * and never checkpointed; it logs it, keeps it in the split's item (attribute {@code gu}) and lists
 * it in {@link BatchPipeline#givenUp()}, and windows wait for it: no window ends past {@code
 * watermark} fires until it is replayed with {@link BatchPipeline#replay}, which applies each of
 * its records that no key applied yet, once.
 *
 * @param split the split (a Kinesis shard)
 * @param after the position the split had reached: the given-up records are after it (null: from
 *     the split's start)
 * @param before the first record of the batch that came next: the given-up records are before it
 * @param watermark the split's event time when the records were given up: their windows are held
 *     open at it
 * @param at when the pipeline noticed, epoch ms
 */
public record GivenUp(String split, String after, String before, long watermark, long at) {
  /** Checks the fields. */
  public GivenUp {
    Objects.requireNonNull(split, "split");
    Objects.requireNonNull(before, "before");
  }

  /** True if {@code offset} (a sequence number of this split) lies in the given-up range. */
  public boolean covers(String offset) {
    return (after == null || dev.statekit.stream.SourcePosition.compareOffsets(offset, after) > 0)
        && dev.statekit.stream.SourcePosition.compareOffsets(offset, before) < 0;
  }
}
