package dev.statekit.stream.lambda.internal;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** A message's receipt: the outputs it produced for every key, as delivered again on a repeat. */
final class Receipts {
  private Receipts() {}

  static byte[] encode(List<StoredOutput> outputs) {
    try {
      ByteSink bytes = new ByteSink(16);
      DataOutputStream out = new DataOutputStream(bytes);
      StoredOutput.writeAll(out, outputs);
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<StoredOutput> decode(byte[] bytes) {
    try {
      return StoredOutput.readAll(new DataInputStream(new ByteArrayInputStream(bytes)));
    } catch (IOException e) {
      throw new UncheckedIOException("A message's receipt is corrupt", e);
    }
  }
}
