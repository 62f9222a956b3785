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
 * @param attempted the first offset of the earliest attempt recorded in the range, or null if none
 *     was (a range only the {@linkplain #onFailure on-failure destination} named): every attempt of
 *     the batches before it failed before it reached the table, so none of their records was
 *     applied anywhere
 */
public record GivenUp(
    String split, String after, String before, long watermark, long at, String attempted) {
  /** Checks the fields. */
  public GivenUp {
    Objects.requireNonNull(split, "split");
    Objects.requireNonNull(before, "before");
  }

  /**
   * The range of a batch as the event source mapping's on-failure destination records it (the
   * shard, {@code startSequenceNumber} and {@code endSequenceNumber}), to hand to {@link
   * BatchPipeline#replay} when {@link BatchPipeline#givenUp()} does not list it.
   */
  public static GivenUp onFailure(String split, String firstSequence, String lastSequence) {
    java.math.BigInteger first = new java.math.BigInteger(firstSequence);
    java.math.BigInteger last = new java.math.BigInteger(lastSequence);
    if (first.compareTo(last) > 0 || first.signum() < 0) {
      throw new IllegalArgumentException(
          "An on-failure record's first sequence number is at most its last: got "
              + firstSequence
              + " to "
              + lastSequence);
    }
    return new GivenUp(
        split,
        first.subtract(java.math.BigInteger.ONE).toString(),
        last.add(java.math.BigInteger.ONE).toString(),
        Long.MIN_VALUE,
        0,
        null);
  }

  /** True if no invocation applied the record at {@code offset} of this range to any key. */
  public boolean appliedNowhere(String offset) {
    return attempted == null
        || dev.statekit.stream.SourcePosition.compareOffsets(offset, attempted) < 0;
  }

  /**
   * True if the two ranges of one split share a record: both ends are exclusive, so ranges that lie
   * end to end (one's {@code after} just before the other's {@code before}) share none.
   */
  public boolean overlaps(GivenUp other) {
    return split.equals(other.split) && before(after, other.before) && before(other.after, before);
  }

  /** Whether a record lies after {@code after} (null: the split's start) and before {@code end}. */
  private static boolean before(String after, String end) {
    java.math.BigInteger start =
        after == null
            ? java.math.BigInteger.ZERO
            : new java.math.BigInteger(after).add(java.math.BigInteger.ONE);
    return start.compareTo(new java.math.BigInteger(end)) < 0;
  }

  /** True if {@code offset} (a sequence number of this split) lies in the given-up range. */
  public boolean covers(String offset) {
    return (after == null || dev.statekit.stream.SourcePosition.compareOffsets(offset, after) > 0)
        && dev.statekit.stream.SourcePosition.compareOffsets(offset, before) < 0;
  }
}
