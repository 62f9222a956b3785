package dev.statekit.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The word-at-a-time comparison agrees with {@code Arrays.equals} on every length and offset. */
class ByteRangesTest {
  @Test
  void agreesWithArraysEqualsWhereverTheRangesDiffer() {
    byte[] a = new byte[64];
    for (int i = 0; i < a.length; i++) {
      a[i] = (byte) (i * 37 + 11);
    }
    for (int length = 0; length <= 40; length++) {
      for (int aFrom = 0; aFrom <= 9; aFrom++) {
        byte[] b = new byte[length + 12];
        int bFrom = 12 - aFrom;
        System.arraycopy(a, aFrom, b, bFrom, length);
        assertEquals(true, ByteRanges.equal(a, aFrom, b, bFrom, length), length + "@" + aFrom);
        for (int at = 0; at < length; at++) {
          b[bFrom + at] ^= (byte) 0x80;
          assertEquals(
              Arrays.equals(a, aFrom, aFrom + length, b, bFrom, bFrom + length),
              ByteRanges.equal(a, aFrom, b, bFrom, length),
              length + "@" + aFrom + " differing at " + at);
          b[bFrom + at] ^= (byte) 0x80;
        }
      }
    }
  }

  @Test
  void randomRangesNearTheEndsOfTheirArraysAgreeWithArraysEquals() {
    long seed = Long.getLong("statekit.fuzz.seed", 99L);
    java.util.Random random = new java.util.Random(seed);
    for (int run = 0; run < 200_000; run++) {
      int length = random.nextInt(70);
      byte[] a = new byte[length + random.nextInt(10)];
      byte[] b = new byte[length + random.nextInt(10)];
      random.nextBytes(a);
      random.nextBytes(b);
      int aFrom = random.nextBoolean() ? a.length - length : random.nextInt(a.length - length + 1);
      int bFrom = random.nextBoolean() ? b.length - length : random.nextInt(b.length - length + 1);
      if (random.nextInt(3) > 0) {
        System.arraycopy(a, aFrom, b, bFrom, length);
        if (length > 0 && random.nextBoolean()) {
          b[bFrom + random.nextInt(length)] ^= (byte) (1 << random.nextInt(8));
        }
      }
      // The same array at overlapping offsets, too.
      byte[] c = random.nextInt(8) == 0 ? a : b;
      int cFrom = c == a ? random.nextInt(a.length - length + 1) : bFrom;
      assertEquals(
          Arrays.equals(a, aFrom, aFrom + length, c, cFrom, cFrom + length),
          ByteRanges.equal(a, aFrom, c, cFrom, length),
          "seed " + seed + " run " + run);
    }
  }

  @Test
  void aRangePastItsArrayIsRefused() {
    byte[] a = new byte[20];
    assertThrows(IndexOutOfBoundsException.class, () -> ByteRanges.equal(a, 15, a, 0, 6));
    assertThrows(IndexOutOfBoundsException.class, () -> ByteRanges.equal(a, 10, a, 0, 12));
    assertThrows(IndexOutOfBoundsException.class, () -> ByteRanges.equal(a, 0, a, 19, 2));
  }
}
