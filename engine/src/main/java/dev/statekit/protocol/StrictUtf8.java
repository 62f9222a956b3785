package dev.statekit.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Tells well-formed UTF-8 (the Unicode standard's table 3-7: no overlong forms, no surrogates,
 * nothing past U+10FFFF, no sequence cut short) without decoding it, so without allocating: the
 * same bytes the JDK's UTF-8 decoder reports nothing wrong with, and protobuf takes as a string.
 */
final class StrictUtf8 {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The top bit of each of eight bytes: a word of ASCII has none set. */
  private static final long NOT_ASCII = 0x8080808080808080L;

  private StrictUtf8() {}

  /** Whether the {@code length} bytes at {@code offset} are well-formed UTF-8. */
  static boolean isWellFormed(byte[] bytes, int offset, int length) {
    int i = offset;
    int end = offset + length;
    // Names are mostly ASCII, and the reader checks every one it reads: eight bytes at a time up
    // to the first that is not.
    while (end - i >= 8 && ((long) LONGS.get(bytes, i) & NOT_ASCII) == 0) {
      i += 8;
    }
    int left = end - i;
    if (left == 0) {
      return true;
    }
    if (left < 8 && bytes.length - i >= 8) {
      // The last few as one word too, where the array holds one: the bytes past the end are masked
      // off (the first byte is the lowest in a little-endian word).
      long tail = (long) LONGS.get(bytes, i) & (-1L >>> ((8 - left) * 8));
      if ((tail & NOT_ASCII) == 0) {
        return true;
      }
    }
    // Kept apart, so that the ASCII check above is small enough for the reader to inline.
    return isWellFormedFrom(bytes, i, end);
  }

  /** Whether the bytes from {@code i} to {@code end} are well-formed UTF-8, byte by byte. */
  private static boolean isWellFormedFrom(byte[] bytes, int i, int end) {
    while (i < end) {
      int b = bytes[i];
      if (b >= 0) {
        i++;
        continue;
      }
      b &= 0xFF;
      if (b < 0xC2 || b > 0xF4) {
        // A continuation byte first, a two-byte form of an ASCII character, or past U+10FFFF.
        return false;
      }
      int size = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
      if (end - i < size) {
        return false;
      }
      int second = bytes[i + 1] & 0xFF;
      // The second byte's range is narrower after these leads: the others would be overlong
      // (E0, F0), a surrogate (ED) or past U+10FFFF (F4).
      int low = b == 0xE0 ? 0xA0 : b == 0xF0 ? 0x90 : 0x80;
      int high = b == 0xED ? 0x9F : b == 0xF4 ? 0x8F : 0xBF;
      if (second < low || second > high) {
        return false;
      }
      for (int k = 2; k < size; k++) {
        if ((bytes[i + k] & 0xC0) != 0x80) {
          return false;
        }
      }
      i += size;
    }
    return true;
  }
}
