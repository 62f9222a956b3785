package dev.statekit.stream.state.internal;

import java.util.Arrays;

/**
 * The growing buffer an entry is written into. Not a {@code DataOutputStream} over a {@code
 * ByteArrayOutputStream}: every write of that pair takes the stream's lock, and an entry is a few
 * writes per state of every window, once per key a batch touches.
 */
final class EntryBytes {
  private byte[] bytes;
  private int size;

  EntryBytes(int expected) {
    bytes = new byte[Math.max(16, expected)];
  }

  void write(byte[] b) {
    ensure(b.length);
    System.arraycopy(b, 0, bytes, size, b.length);
    size += b.length;
  }

  void writeInt(int v) {
    ensure(4);
    bytes[size] = (byte) (v >>> 24);
    bytes[size + 1] = (byte) (v >>> 16);
    bytes[size + 2] = (byte) (v >>> 8);
    bytes[size + 3] = (byte) v;
    size += 4;
  }

  /** The length, then the bytes; -1 for null. */
  void writeSized(byte[] b) {
    if (b == null) {
      writeInt(-1);
      return;
    }
    writeInt(b.length);
    write(b);
  }

  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  private void ensure(int more) {
    if (size + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
    }
  }
}
