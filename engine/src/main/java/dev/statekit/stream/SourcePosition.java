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
    if (isDigits(a) && isDigits(b)) {
      String x = stripZeros(a);
      String y = stripZeros(b);
      return x.length() != y.length() ? Integer.compare(x.length(), y.length()) : x.compareTo(y);
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

  private static String stripZeros(String s) {
    int i = 0;
    while (i < s.length() - 1 && s.charAt(i) == '0') {
      i++;
    }
    return s.substring(i);
  }
}
