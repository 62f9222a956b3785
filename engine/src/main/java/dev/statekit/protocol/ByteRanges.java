package dev.statekit.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Compares short byte ranges, such as a name in a request with the bytes of the same name last
 * time, eight bytes at a time. For the few dozen bytes of a name this is cheaper than {@code
 * Arrays.equals}, whose checks and call to the vectorized stub cost more than the comparison.
 */
final class ByteRanges {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private ByteRanges() {}

  /**
   * Whether {@code a[aFrom, aFrom + length)} and {@code b[bFrom, bFrom + length)} hold the same
   * bytes.
   *
   * @throws IndexOutOfBoundsException if a range is not inside its array
   */
  static boolean equal(byte[] a, int aFrom, byte[] b, int bFrom, int length) {
    if (length >= 8) {
      // Whole words, then the last eight bytes (overlapping the words before when the length is
      // not a multiple of eight).
      int last = length - 8;
      for (int i = 0; i < last; i += 8) {
        if ((long) LONGS.get(a, aFrom + i) != (long) LONGS.get(b, bFrom + i)) {
          return false;
        }
      }
      return (long) LONGS.get(a, aFrom + last) == (long) LONGS.get(b, bFrom + last);
    }
    if (length < 0 || aFrom + length > a.length || bFrom + length > b.length) {
      throw new IndexOutOfBoundsException("a range is not inside its array");
    }
    for (int i = 0; i < length; i++) {
      if (a[aFrom + i] != b[bFrom + i]) {
        return false;
      }
    }
    return true;
  }
}
