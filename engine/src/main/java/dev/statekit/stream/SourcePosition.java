package dev.statekit.stream;

import java.util.Objects;

/**
 * Where a record came from: a split of the source (a Kinesis shard, a queue, a file) and the
 * record's offset in it. Checkpoints store the position after the last record read from each split;
 * a restored source resumes there, and a retried batch is fenced by it.
 *
 * @param split the split's name, unique within the source
 * @param offset the offset within the split; numeric offsets compare as numbers
 */
public record SourcePosition(String split, String offset) {
  /** Validates both parts. */
  public SourcePosition {
    Objects.requireNonNull(split, "split");
    Objects.requireNonNull(offset, "offset");
  }

  /** A position with a numeric offset. */
  public static SourcePosition of(String split, long offset) {
    return new SourcePosition(split, Long.toString(offset));
  }

  /**
   * Compares two offsets of one split: numerically when both are decimal numbers of any length
   * (Kinesis sequence numbers exceed a long), otherwise as strings.
   */
  public static int compareOffsets(String a, String b) {
    if (a.length() == b.length()) {
      // Decimal numbers of one length, leading zeros or not, order as their text does: the common
      // case (a shard's sequence numbers) needs no scan for digits.
      return a.compareTo(b);
    }
    if (isDigits(a) && isDigits(b)) {
      // As numbers, without the copies stripping their zeros would make: batches compare offsets
      // per record and per key.
      int i = leadingZeros(a);
      int j = leadingZeros(b);
      int length = a.length() - i;
      if (length != b.length() - j) {
        return Integer.compare(length, b.length() - j);
      }
      for (int k = 0; k < length; k++) {
        int difference = a.charAt(i + k) - b.charAt(j + k);
        if (difference != 0) {
          return difference;
        }
      }
      return 0;
    }
    return a.compareTo(b);
  }

  private static boolean isDigits(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** The zeros before its first significant digit (a lone "0" keeps its zero). */
  private static int leadingZeros(String s) {
    int i = 0;
    while (i < s.length() - 1 && s.charAt(i) == '0') {
      i++;
    }
    return i;
  }
}
