package dev.statekit.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Undoes the percent-encoding of a request path: a call's target, and a function's own path, are
 * found however the client wrote them.
 */
final class PercentDecoding {
  private PercentDecoding() {}

  /**
   * A percent-encoded path as text ('+' is itself there, not a space as in a form), or null if its
   * escapes are malformed or its bytes are not UTF-8: decoding those leniently made distinct paths
   * (%FE, %FF) one address.
   */
  static String decode(String path) {
    if (path.indexOf('%') < 0 && path.chars().allMatch(c -> c < 0x80)) {
      return path;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '%') {
        if (i + 2 >= path.length()) {
          return null;
        }
        int high = Character.digit(path.charAt(i + 1), 16);
        int low = Character.digit(path.charAt(i + 2), 16);
        if (high < 0 || low < 0) {
          return null;
        }
        bytes.write(high * 16 + low);
        i += 2;
      } else if (c < 0x80) {
        bytes.write(c);
      } else {
        // A path the HTTP server parsed is ASCII, but an event's may hold text itself (a gateway
        // may hand it over decoded): its UTF-8 bytes, never the char cut to a byte (which made
        // U+0131 the digit 1, another address).
        int point = path.codePointAt(i);
        if (Character.isBmpCodePoint(point) && Character.isSurrogate((char) point)) {
          return null;
        }
        bytes.writeBytes(new String(Character.toChars(point)).getBytes(StandardCharsets.UTF_8));
        i += Character.charCount(point) - 1;
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
