package dev.statekit.stream.lambda.internal;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growing byte buffer to put a {@code DataOutputStream} over, in place of a {@code
 * ByteArrayOutputStream}, whose every write takes a lock: a batch writes each touched key's
 * bookkeeping and its timer items through one, a few dozen small writes each.
 */
final class ByteSink extends OutputStream {
  private byte[] bytes;
  private int size;

  ByteSink(int expected) {
    bytes = new byte[Math.max(16, expected)];
  }

  @Override
  public void write(int b) {
    ensure(1);
    bytes[size++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, bytes, size, len);
    size += len;
  }

  int size() {
    return size;
  }

  /** Empties the sink, keeping its buffer. */
  void reset() {
    size = 0;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  private void ensure(int more) {
    if (more > bytes.length - size) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
    }
  }
}
