package dev.statekit.stream.lambda.internal;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** A message's receipt: the outputs it produced for every key, as delivered again on a repeat. */
final class Receipts {
  private Receipts() {}

  static byte[] encode(List<StoredOutput> outputs) {
    try {
      ByteSink bytes = new ByteSink(16);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(outputs.size());
      for (StoredOutput output : outputs) {
        output.write(out);
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<StoredOutput> decode(byte[] bytes) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
      List<StoredOutput> outputs = new ArrayList<>();
      for (int n = in.readInt(); n > 0; n--) {
        outputs.add(StoredOutput.read(in));
      }
      return outputs;
    } catch (IOException e) {
      throw new UncheckedIOException("A message's receipt is corrupt", e);
    }
  }
}
