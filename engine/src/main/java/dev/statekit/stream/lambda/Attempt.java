package dev.statekit.stream.lambda;

import java.util.Objects;

/**
 * A batch of an ordered split (a Kinesis shard) that an invocation started: recorded before any key
 * of the batch is written and kept for the stream's retention, so that the batch after it can tell
 * a batch Lambda gave up on, and a replay can tell records some invocation may have applied from
 * records none did.
 *
 * @param first the batch's first offset (retries of the batch replace its attempt)
 * @param last its last offset
 * @param at when it was attempted, epoch ms
 * @param watermark the event time its records reach ({@link Long#MIN_VALUE} if unknown): an attempt
 *     may deliver the windows ending up to it before it dies, so a batch after it, should Lambda
 *     give up on it, must count records of those windows late, as it would have had the attempt
 *     checkpointed
 */
public record Attempt(String first, String last, long at, long watermark) {
  /** An attempt whose records' event time is not known. */
  public Attempt(String first, String last, long at) {
    this(first, last, at, Long.MIN_VALUE);
  }

  /** Longest Kinesis sequence numbers have 128 digits. */
  private static final int DIGITS = 128;

  /** Checks the fields. */
  public Attempt {
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(last, "last");
  }

  /** {@code offset} (decimal digits) padded so that such keys sort as the numbers do. */
  public static String sortKey(String offset) {
    return offset.length() >= DIGITS ? offset : "0".repeat(DIGITS - offset.length()) + offset;
  }
}
