package dev.statekit.http;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Undoes the percent-encoding of a request path, so that a path is found however it was written.
 */
final class PercentDecoding {
  private PercentDecoding() {}

  /**
   * {@code path} with each {@code %XX} replaced by its byte, read as UTF-8; {@code null} if an
   * escape is not two hex digits or the bytes are not UTF-8 (such a path names nothing registered).
   */
  static String decode(String path) {
    if (path.indexOf('%') < 0) {
      return path;
    }
    byte[] bytes = new byte[path.length()];
    int length = 0;
    for (int k = 0; k < path.length(); k++) {
      char c = path.charAt(k);
      if (c != '%') {
        if (c > 0x7F) {
          return null;
        }
        bytes[length++] = (byte) c;
        continue;
      }
      int high = k + 2 < path.length() ? Character.digit(path.charAt(k + 1), 16) : -1;
      int low = high >= 0 ? Character.digit(path.charAt(k + 2), 16) : -1;
      if (low < 0) {
        return null;
      }
      bytes[length++] = (byte) (high * 16 + low);
      k += 2;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, 0, length))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
