package dev.statekit.stream.internal.batch;

import dev.statekit.stream.SourcePosition;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What a key's item records beside its state, so that no record is applied to it twice: per ordered
 * split the offset of the last record applied ({@code marks}); per unordered split the fingerprints
 * of recent message ids ({@code seen}); and the per-record outputs of the last batches that touched
 * it ({@code outbox}), delivered after the write and again by a retried batch.
 */
final class KeyBook {
  /** A message id applied to the key. */
  record Seen(String split, long fingerprint, long atMillis) {}

  /**
   * The outputs one source record produced for this key.
   *
   * @param split the record's split
   * @param offset the record's offset
   * @param atMillis when it was applied
   * @param outputs the outputs, in order
   */
  record Outbox(String split, String offset, long atMillis, List<StoredOutput> outputs) {}

  private static final int FORMAT = 1;

  private final TreeMap<String, String> marks = new TreeMap<>();
  private final List<Seen> seen = new ArrayList<>();
  private final List<Outbox> outbox = new ArrayList<>();

  static KeyBook decode(byte[] bytes) {
    KeyBook book = new KeyBook();
    if (bytes == null) {
      return book;
    }
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
      int format = in.readByte();
      if (format != FORMAT) {
        throw new IllegalStateException(
            "A key item's bookkeeping has format " + format + ", this StateKit reads " + FORMAT);
      }
      for (int n = in.readInt(); n > 0; n--) {
        book.marks.put(in.readUTF(), in.readUTF());
      }
      for (int n = in.readInt(); n > 0; n--) {
        book.seen.add(new Seen(in.readUTF(), in.readLong(), in.readLong()));
      }
      for (int n = in.readInt(); n > 0; n--) {
        String split = in.readUTF();
        String offset = in.readUTF();
        long at = in.readLong();
        List<StoredOutput> outputs = new ArrayList<>();
        for (int m = in.readInt(); m > 0; m--) {
          outputs.add(StoredOutput.read(in));
        }
        book.outbox.add(new Outbox(split, offset, at, outputs));
      }
      return book;
    } catch (IOException e) {
      throw new UncheckedIOException("A key item's bookkeeping is corrupt", e);
    }
  }

  /** The bytes, or null if there is nothing to keep. */
  byte[] encode() {
    if (marks.isEmpty() && seen.isEmpty() && outbox.isEmpty()) {
      return null;
    }
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeByte(FORMAT);
      out.writeInt(marks.size());
      for (Map.Entry<String, String> mark : marks.entrySet()) {
        out.writeUTF(mark.getKey());
        out.writeUTF(mark.getValue());
      }
      out.writeInt(seen.size());
      for (Seen s : seen) {
        out.writeUTF(s.split());
        out.writeLong(s.fingerprint());
        out.writeLong(s.atMillis());
      }
      out.writeInt(outbox.size());
      for (Outbox entry : outbox) {
        out.writeUTF(entry.split());
        out.writeUTF(entry.offset());
        out.writeLong(entry.atMillis());
        out.writeInt(entry.outputs().size());
        for (StoredOutput output : entry.outputs()) {
          output.write(out);
        }
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The offset of the last record of ordered split {@code split} applied, or null. */
  String mark(String split) {
    return marks.get(split);
  }

  void mark(String split, String offset) {
    marks.put(split, offset);
  }

  /**
   * Forgets the marks of splits whose checkpoint is at or past them: a batch of such a split skips
   * those records whole, so the marks fence nothing any more.
   */
  void forgetCovered(Map<String, String> positions) {
    marks
        .entrySet()
        .removeIf(
            mark -> {
              String position = positions.get(mark.getKey());
              return position != null
                  && SourcePosition.compareOffsets(mark.getValue(), position) <= 0;
            });
  }

  boolean seen(String split, long fingerprint) {
    for (Seen s : seen) {
      if (s.fingerprint() == fingerprint && s.split().equals(split)) {
        return true;
      }
    }
    return false;
  }

  void remember(String split, long fingerprint, long atMillis) {
    seen.add(new Seen(split, fingerprint, atMillis));
  }

  /**
   * Forgets message ids and outbox entries applied before {@code before}, and message ids beyond
   * the newest {@code capacity}. (An ordered split's outbox entries usually go sooner: its next
   * batch proves them delivered.)
   */
  void forgetOlder(long before, int capacity) {
    seen.removeIf(s -> s.atMillis() < before);
    while (seen.size() > capacity) {
      seen.remove(0);
    }
    outbox.removeIf(entry -> entry.atMillis() < before);
  }

  List<Outbox> outbox() {
    return outbox;
  }

  /** Removes the entries of {@code split} that {@code drop} accepts; returns them. */
  List<Outbox> removeOutbox(String split, Predicate<Outbox> drop) {
    List<Outbox> removed = new ArrayList<>();
    for (Iterator<Outbox> it = outbox.iterator(); it.hasNext(); ) {
      Outbox entry = it.next();
      if (entry.split().equals(split) && drop.test(entry)) {
        removed.add(entry);
        it.remove();
      }
    }
    return removed;
  }

  void addOutbox(Outbox entry) {
    outbox.add(entry);
  }
}
