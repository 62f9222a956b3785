package dev.statekit.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The allocation-free UTF-8 check against the JDK's strict decoder, which the reader used before
 * and protobuf agrees with: every sequence of up to three bytes, four-byte ones around every edge
 * of the table, and random mixes; and the interner's decoding, which relies on it.
 */
class StrictUtf8Test {
  /** The bytes around every boundary of table 3-7, for the positions not tried exhaustively. */
  private static final int[] EDGES = {
    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
    0xF0, 0xF4, 0xF5, 0xFF
  };

  private final CharsetDecoder strict =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);

  private final CharBuffer chars = CharBuffer.allocate(32);

  @Test
  void everySequenceOfUpToThreeBytes() {
    byte[] bytes = new byte[3];
    for (int a = 0; a < 256; a++) {
      bytes[0] = (byte) a;
      agrees(bytes, 1);
      for (int b = 0; b < 256; b++) {
        bytes[1] = (byte) b;
        agrees(bytes, 2);
        for (int c = 0; c < 256; c++) {
          bytes[2] = (byte) c;
          agrees(bytes, 3);
        }
      }
    }
  }

  @Test
  void fourByteSequencesAroundEveryEdge() {
    byte[] bytes = new byte[4];
    // An ASCII first byte stands alone: sequences starting with one are covered above.
    for (int a = 0x80; a < 256; a++) {
      for (int b = 0; b < 256; b++) {
        for (int c : EDGES) {
          for (int d : EDGES) {
            bytes[0] = (byte) a;
            bytes[1] = (byte) b;
            bytes[2] = (byte) c;
            bytes[3] = (byte) d;
            agrees(bytes, 4);
          }
        }
      }
    }
  }

  @Test
  void randomMixesAndOffsets() {
    Random random = new Random(20261203L);
    for (int run = 0; run < 300_000; run++) {
      byte[] bytes = new byte[2 + random.nextInt(14)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] =
            (byte)
                switch (random.nextInt(3)) {
                  case 0 -> random.nextInt(128);
                  case 1 -> EDGES[random.nextInt(EDGES.length)];
                  default -> random.nextInt(256);
                };
      }
      int offset = random.nextInt(bytes.length);
      int length = random.nextInt(bytes.length - offset + 1);
      boolean expected = decodes(bytes, offset, length);
      assertEquals(
          expected,
          StrictUtf8.isWellFormed(bytes, offset, length),
          HexFormat.of().formatHex(bytes, offset, offset + length));
    }
  }

  /**
   * ASCII with a byte or two of something else anywhere, inside the range checked or just past it:
   * the check reads eight bytes at a time, and a last word that runs past the range, whose bytes
   * beyond it must not count.
   */
  @Test
  void mostlyAsciiAroundTheWordsTheCheckReads() {
    Random random = new Random(20261205L);
    CharBuffer wide = CharBuffer.allocate(64);
    for (int run = 0; run < 300_000; run++) {
      byte[] bytes = new byte[1 + random.nextInt(40)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) (0x20 + random.nextInt(0x5F));
      }
      int offset = random.nextInt(bytes.length);
      int length = random.nextInt(bytes.length - offset + 1);
      for (int odd = random.nextInt(3); odd > 0; odd--) {
        // Mostly at the range's last byte or just past it, where the last word's mask cuts.
        int at =
            random.nextBoolean()
                ? Math.min(bytes.length - 1, offset + length - 1 + random.nextInt(2))
                : random.nextInt(bytes.length);
        bytes[Math.max(0, at)] = (byte) EDGES[random.nextInt(EDGES.length)];
      }
      strict.reset();
      wide.clear();
      boolean expected =
          !strict.decode(ByteBuffer.wrap(bytes, offset, length), wide, true).isError()
              && !strict.flush(wide).isError();
      assertEquals(
          expected,
          StrictUtf8.isWellFormed(bytes, offset, length),
          HexFormat.of().formatHex(bytes) + " from " + offset + " for " + length);
    }
  }

  @Test
  void theInternerDecodesWellFormedBytesAsTheStrictDecoderAndRefusesTheRest() throws Exception {
    for (String text : new String[] {"", "ascii", "é/ü", "日本語", "emoji \uD83D\uDE00 end"}) {
      byte[] bytes = ("<" + text + ">").getBytes(StandardCharsets.UTF_8);
      String expected = strict.decode(ByteBuffer.wrap(bytes, 1, bytes.length - 2)).toString();
      assertEquals(expected, StringInterner.decode(bytes, 1, bytes.length - 2));
      assertEquals(expected, new StringInterner().intern(bytes, 1, bytes.length - 2));
    }
    byte[] surrogate = {'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80};
    assertThrows(
        CharacterCodingException.class,
        () -> StringInterner.decode(surrogate, 0, surrogate.length));
    assertThrows(
        CharacterCodingException.class,
        () -> StringInterner.checkUtf8(surrogate, 0, surrogate.length));
  }

  private void agrees(byte[] bytes, int length) {
    if (decodes(bytes, 0, length) != StrictUtf8.isWellFormed(bytes, 0, length)) {
      throw new AssertionError(
          "StrictUtf8 and the JDK's decoder disagree on "
              + HexFormat.of().formatHex(bytes, 0, length));
    }
  }

  /** Whether the strict decoder takes the bytes (as its decode(ByteBuffer) would, but faster). */
  private boolean decodes(byte[] bytes, int offset, int length) {
    strict.reset();
    chars.clear();
    return !strict.decode(ByteBuffer.wrap(bytes, offset, length), chars, true).isError()
        && !strict.flush(chars).isError();
  }
}
