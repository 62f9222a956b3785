package dev.statekit.protocol;

/**
 * Tells well-formed UTF-8 (the Unicode standard's table 3-7: no overlong forms, no surrogates,
 * nothing past U+10FFFF, no sequence cut short) without decoding it, so without allocating: the
 * same bytes the JDK's UTF-8 decoder reports nothing wrong with, and protobuf takes as a string.
 */
final class StrictUtf8 {
  private StrictUtf8() {}

  /** Whether the {@code length} bytes at {@code offset} are well-formed UTF-8. */
  static boolean isWellFormed(byte[] bytes, int offset, int length) {
    int i = offset;
    int end = offset + length;
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
