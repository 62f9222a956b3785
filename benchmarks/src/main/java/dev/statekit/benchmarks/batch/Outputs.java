package dev.statekit.benchmarks.batch;

import dev.statekit.examples.fraud.Card;
import dev.statekit.stream.Record;
import dev.statekit.stream.Sink;
import dev.statekit.stream.SinkWriter;
import dev.statekit.types.Type;
import dev.statekit.types.Types;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a job delivered, each output as the bytes the batch engine's egress carries, sorted: two
 * engines did the same work only if they delivered the same outputs, not merely as many (a window
 * counted short in one and a window counted twice in another would give the same number).
 */
final class Outputs {
  private final List<String> outputs = new ArrayList<>();

  /** The bytes of a job's output value, as its egress encodes it. */
  @SuppressWarnings("unchecked")
  static Type<Object> type(Jobs job) {
    return (Type<Object>) (Type<?>) (job == Jobs.FRAUD ? Card.ALERT : Types.stringType());
  }

  synchronized void add(byte[] value) {
    outputs.add(new String(value, StandardCharsets.UTF_8));
  }

  /** A sink for the in-process engine that keeps each value's bytes ({@code type}'s). */
  Sink<Object> sink(Type<Object> type) {
    return new Sink<>() {
      @Override
      public SinkWriter<Object> open(int worker, int workers) {
        return new SinkWriter<>() {
          @Override
          public void write(Record<Object> record) {
            add(type.serialize(record.value()));
          }

          @Override
          public void checkpoint(long checkpointId) {}

          @Override
          public void close() {}
        };
      }

      @Override
      public String name() {
        return "outputs";
      }
    };
  }

  /** Writes the outputs to {@code file}, for another engine's JVM to compare with. */
  synchronized void write(Path file) throws IOException {
    try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
      out.writeInt(outputs.size());
      for (String output : outputs) {
        byte[] bytes = output.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
      }
    }
  }

  /** The outputs {@link #write} wrote to {@code file}. */
  static Outputs read(Path file) throws IOException {
    Outputs read = new Outputs();
    try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
      for (int n = in.readInt(); n > 0; n--) {
        read.add(in.readNBytes(in.readInt()));
      }
    }
    return read;
  }

  synchronized List<String> sorted() {
    List<String> sorted = new ArrayList<>(outputs);
    Collections.sort(sorted);
    return sorted;
  }

  /**
   * Fails unless {@code batch} holds the same outputs as {@code inProcess}, naming a few of those
   * only one of them has.
   */
  static void same(String what, Outputs inProcess, Outputs batch) {
    List<String> a = inProcess.sorted();
    List<String> b = batch.sorted();
    if (a.equals(b)) {
      return;
    }
    List<String> onlyInProcess = new ArrayList<>();
    List<String> onlyBatch = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < a.size() || j < b.size()) {
      int c = i == a.size() ? 1 : j == b.size() ? -1 : a.get(i).compareTo(b.get(j));
      if (c == 0) {
        i++;
        j++;
      } else if (c < 0) {
        onlyInProcess.add(a.get(i++));
      } else {
        onlyBatch.add(b.get(j++));
      }
    }
    throw new IllegalStateException(
        what
            + ": the batch engine delivered "
            + b.size()
            + " outputs and the in-process engine "
            + a.size()
            + ", not the same ones: "
            + onlyInProcess.size()
            + " only in-process (e.g. "
            + onlyInProcess.subList(0, Math.min(3, onlyInProcess.size()))
            + "), "
            + onlyBatch.size()
            + " only from the batch engine (e.g. "
            + onlyBatch.subList(0, Math.min(3, onlyBatch.size()))
            + "); the two did not do the same work");
  }
}
