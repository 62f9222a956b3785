package dev.statekit.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Protobuf bytes written by hand, for requests the generated classes cannot build: forged layouts,
 * and batches so large the message tree would take gigabytes.
 */
final class WireBytes {
  private WireBytes() {}

  /** A length-delimited field {@code number} holding {@code parts} one after another. */
  static byte[] field(int number, byte[]... parts) {
    byte[] body = concat(parts);
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 10);
    varint(out, (number << 3) | 2);
    varint(out, body.length);
    out.writeBytes(body);
    return out.toByteArray();
  }

  /** A string field {@code number}, UTF-8. */
  static byte[] string(int number, String text) {
    return field(number, text.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] concat(byte[]... parts) {
    if (parts.length == 1) {
      return parts[0];
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  private static void varint(ByteArrayOutputStream out, int value) {
    while ((value & ~0x7F) != 0) {
      out.write((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out.write(value);
  }
}
