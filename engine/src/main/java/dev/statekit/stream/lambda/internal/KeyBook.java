package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.SourcePosition;
import dev.statekit.stream.lambda.GivenUp;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What a key's item records beside its state, so that no record is applied to it twice and none of
 * its outputs is lost:
 *
 * <ul>
 *   <li>per ordered split, the offset of the last record applied ({@code marks});
 *   <li>per range of an ordered split that Lambda gave up on, how far into it the key had applied
 *       when the split moved past it ({@code notes}): a replay of the range skips what the key
 *       applied, though its mark has moved on since;
 *   <li>the outputs of ordered records whose batch has not checkpointed yet ({@code outbox}): a
 *       checkpoint is written only after its batch delivered, so entries at or before a split's
 *       position (and outside a given-up range) are known delivered and go;
 *   <li>the messages of unordered splits applied and not yet known to have a receipt ({@code
 *       pending}), with their outputs: a receipt, written once every key of a message was written,
 *       takes over; the entry goes once the receipt is known written.
 * </ul>
 */
final class KeyBook {
  /**
   * The outputs one ordered source record produced for this key.
   *
   * @param split the record's split
   * @param offset the record's offset
   * @param atMillis when it was applied
   * @param outputs the outputs, in order
   */
  record Outbox(String split, String offset, long atMillis, List<StoredOutput> outputs) {}

  /**
   * A message of an unordered split applied to this key whose receipt is not known written.
   *
   * @param split the message's split
   * @param id its message id (a DynamoDB stream record's sequence number)
   * @param atMillis when it was applied
   * @param outputs its outputs for this key
   */
  record Pending(String split, String id, long atMillis, List<StoredOutput> outputs) {}

  /**
   * A hole in what the key applied of {@code split}: the records after {@code from} and before
   * {@code before} (a given-up range, or its part the key had not reached) were not applied, though
   * the key's mark may be past them. Or, for the part of a range no invocation applied to any key
   * ({@code replayed}), how far its replay got: applied through {@code from}.
   *
   * @param from the hole starts after it (null: at the split's start)
   * @param before the first offset of the batch that moved past the range: its note's name
   * @param replayed true for a replay's progress rather than a hole
   */
  record Note(String split, String from, String before, boolean replayed) {
    boolean contains(String offset) {
      return (from == null || SourcePosition.compareOffsets(offset, from) > 0)
          && SourcePosition.compareOffsets(offset, before) < 0;
    }
  }

  /** The format written: outputs name their routes ({@link StoredOutput#writeAll}). */
  private static final int FORMAT = 3;

  /** The format before, whose outputs hold their route's index in the plan: still read. */
  private static final int FORMAT_WITH_INDICES = 2;

  /**
   * About the bytes an outbox or pending entry of {@code split} and {@code offset} takes before its
   * outputs (exactly, for ASCII strings).
   */
  static int entrySize(String split, String offset) {
    return 2 + split.length() + 2 + offset.length() + 8 + 4;
  }

  private final TreeMap<String, String> marks = new TreeMap<>();
  private final List<Note> notes = new ArrayList<>();
  private final List<Outbox> outbox = new ArrayList<>();
  private final List<Pending> pending = new ArrayList<>();

  static KeyBook decode(byte[] bytes) {
    KeyBook book = new KeyBook();
    if (bytes == null) {
      return book;
    }
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
      int format = in.readByte();
      if (format != FORMAT && format != FORMAT_WITH_INDICES) {
        throw new IllegalStateException(
            "A key item's bookkeeping has format "
                + format
                + ", this StateKit reads "
                + FORMAT_WITH_INDICES
                + " and "
                + FORMAT
                + ": let the pipeline drain (no batch in flight) before deploying a version that"
                + " changes it");
      }
      for (int n = in.readInt(); n > 0; n--) {
        book.marks.put(in.readUTF(), in.readUTF());
      }
      for (int n = in.readInt(); n > 0; n--) {
        String split = in.readUTF();
        String from = in.readBoolean() ? in.readUTF() : null;
        book.notes.add(new Note(split, from, in.readUTF(), in.readBoolean()));
      }
      for (int n = in.readInt(); n > 0; n--) {
        book.outbox.add(
            new Outbox(in.readUTF(), in.readUTF(), in.readLong(), StoredOutput.readAll(in)));
      }
      for (int n = in.readInt(); n > 0; n--) {
        book.pending.add(
            new Pending(in.readUTF(), in.readUTF(), in.readLong(), StoredOutput.readAll(in)));
      }
      return book;
    } catch (IOException e) {
      throw new UncheckedIOException("A key item's bookkeeping is corrupt", e);
    }
  }

  /** The bytes, or null if there is nothing to keep. */
  byte[] encode() {
    if (marks.isEmpty() && notes.isEmpty() && outbox.isEmpty() && pending.isEmpty()) {
      return null;
    }
    try {
      ByteSink bytes = new ByteSink(64);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeByte(FORMAT);
      out.writeInt(marks.size());
      for (Map.Entry<String, String> mark : marks.entrySet()) {
        out.writeUTF(mark.getKey());
        out.writeUTF(mark.getValue());
      }
      out.writeInt(notes.size());
      for (Note note : notes) {
        out.writeUTF(note.split());
        out.writeBoolean(note.from() != null);
        if (note.from() != null) {
          out.writeUTF(note.from());
        }
        out.writeUTF(note.before());
        out.writeBoolean(note.replayed());
      }
      out.writeInt(outbox.size());
      for (Outbox entry : outbox) {
        out.writeUTF(entry.split());
        out.writeUTF(entry.offset());
        out.writeLong(entry.atMillis());
        StoredOutput.writeAll(out, entry.outputs());
      }
      out.writeInt(pending.size());
      for (Pending entry : pending) {
        out.writeUTF(entry.split());
        out.writeUTF(entry.id());
        out.writeLong(entry.atMillis());
        StoredOutput.writeAll(out, entry.outputs());
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
   * Notes, for each given-up range not noted yet, the part of it this key had not applied (from its
   * mark, or from the range's start), before its mark moves past it.
   */
  void noteGivenUp(Collection<GivenUp> open) {
    for (GivenUp gap : open) {
      if (gap.attempted() == null) {
        continue; // no key applied any of it: nothing to note
      }
      boolean noted =
          notes.stream()
              .anyMatch(
                  n ->
                      !n.replayed()
                          && n.split().equals(gap.split())
                          && n.before().equals(gap.before()));
      String mark = marks.get(gap.split());
      if (noted || (mark != null && SourcePosition.compareOffsets(mark, gap.before()) >= 0)) {
        continue;
      }
      notes.add(
          new Note(
              gap.split(),
              mark != null && gap.covers(mark) ? mark : gap.after(),
              gap.before(),
              false));
    }
  }

  /**
   * Whether the record at {@code offset} of given-up range {@code gap} was applied to this key: by
   * its mark and the holes noted in it; in the part of the range no invocation applied to any key
   * (before its first recorded attempt), only by its replay so far, whatever the mark says.
   */
  boolean applied(GivenUp gap, String offset) {
    String split = gap.split();
    if (gap.appliedNowhere(offset)) {
      Note note = replayNote(gap);
      return note != null && SourcePosition.compareOffsets(offset, note.from()) <= 0;
    }
    String mark = marks.get(split);
    if (mark == null || SourcePosition.compareOffsets(offset, mark) > 0) {
      return false;
    }
    return notes.stream()
        .noneMatch(n -> !n.replayed() && n.split().equals(split) && n.contains(offset));
  }

  /**
   * Records that the replay of {@code gap} applied the record at {@code offset} to this key: the
   * holes it was in now start after it, or, past every hole, the mark moves to it.
   */
  void replayed(GivenUp gap, String offset) {
    String split = gap.split();
    if (gap.appliedNowhere(offset)) {
      notes.remove(replayNote(gap));
      notes.add(new Note(split, offset, gap.before(), true)); // applied through offset
      return;
    }
    boolean inHole = false;
    for (int i = 0; i < notes.size(); i++) {
      Note note = notes.get(i);
      if (!note.replayed() && note.split().equals(split) && note.contains(offset)) {
        notes.set(i, new Note(split, offset, note.before(), false));
        inHole = true; // every hole it is in: the replay has applied all before it
      }
    }
    if (inHole) {
      return;
    }
    String mark = marks.get(split);
    if (mark == null || SourcePosition.compareOffsets(offset, mark) > 0) {
      marks.put(split, offset);
    }
  }

  /**
   * Forgets what fences nothing any more: marks of splits whose checkpoint is at or past them (a
   * batch of such a split skips those records whole), notes on ranges that were replayed, and
   * outbox entries at or before their split's position outside a given-up range (delivered).
   */
  void forgetCovered(Map<String, String> positions, Collection<GivenUp> open) {
    // A split with a given-up range keeps its marks: a replay tells applied records by them.
    if (!marks.isEmpty()) {
      marks
          .entrySet()
          .removeIf(
              mark ->
                  covered(positions.get(mark.getKey()), mark.getValue())
                      && !anyOf(open, mark.getKey()));
    }
    // A hole goes once its range was replayed: the split's checkpoint is past it (which takes a
    // record of the range, or its replay) and no open range holds it. A batch of another split
    // does not know of a range a batch of this one noticed but could not record yet.
    if (!notes.isEmpty()) {
      notes.removeIf(
          note ->
              covered(positions.get(note.split()), previous(note.before()))
                  && open.stream()
                      .noneMatch(g -> g.split().equals(note.split()) && intersects(note, g)));
    }
    if (!outbox.isEmpty()) {
      outbox.removeIf(entry -> forgettable(entry, positions, open));
    }
  }

  /** Whether an open range is of {@code split} (no stream: this runs for every key written). */
  private static boolean anyOf(Collection<GivenUp> open, String split) {
    for (GivenUp gap : open) {
      if (gap.split().equals(split)) {
        return true;
      }
    }
    return false;
  }

  private static boolean forgettable(
      Outbox entry, Map<String, String> positions, Collection<GivenUp> open) {
    if (!covered(positions.get(entry.split()), entry.offset())) {
      return false;
    }
    for (GivenUp gap : open) {
      if (gap.split().equals(entry.split()) && gap.covers(entry.offset())) {
        return false;
      }
    }
    return true;
  }

  /**
   * About the bytes of the outbox and pending entries {@link #forgetCovered} would keep: what the
   * key holds of earlier batches (or of attempts whose delivery failed) beside this batch's
   * outputs.
   */
  int keptBytes(Map<String, String> positions, Collection<GivenUp> open) {
    int bytes = 0;
    for (Outbox entry : outbox) {
      if (!forgettable(entry, positions, open)) {
        bytes += entrySize(entry.split(), entry.offset()) + StoredOutput.sizeAll(entry.outputs());
      }
    }
    return bytes + pendingBytes();
  }

  /** About the bytes of the pending entries. */
  int pendingBytes() {
    int bytes = 0;
    for (Pending entry : pending) {
      bytes += entrySize(entry.split(), entry.id()) + StoredOutput.sizeAll(entry.outputs());
    }
    return bytes;
  }

  private Note replayNote(GivenUp gap) {
    for (Note note : notes) {
      if (note.replayed()
          && note.split().equals(gap.split())
          && note.before().equals(gap.before())) {
        return note;
      }
    }
    return null;
  }

  private static boolean intersects(Note note, GivenUp gap) {
    return (note.from() == null || SourcePosition.compareOffsets(gap.before(), note.from()) > 0)
        && (gap.after() == null || SourcePosition.compareOffsets(note.before(), gap.after()) > 0);
  }

  private static String previous(String offset) {
    return new java.math.BigInteger(offset).subtract(java.math.BigInteger.ONE).toString();
  }

  private static boolean covered(String position, String offset) {
    return position != null && SourcePosition.compareOffsets(offset, position) <= 0;
  }

  List<Outbox> outbox() {
    return outbox;
  }

  /** Takes out the outbox entries {@code which} accepts. */
  List<Outbox> takeOutbox(Predicate<Outbox> which) {
    List<Outbox> taken = new ArrayList<>();
    outbox.removeIf(
        entry -> {
          boolean take = which.test(entry);
          if (take) {
            taken.add(entry);
          }
          return take;
        });
    return taken;
  }

  void addOutbox(Outbox entry) {
    outbox.removeIf(e -> e.split().equals(entry.split()) && e.offset().equals(entry.offset()));
    outbox.add(entry);
  }

  /** Puts {@code entry} in the place of the entry of its record, keeping the outbox's order. */
  void replaceOutbox(Outbox entry) {
    for (int i = 0; i < outbox.size(); i++) {
      Outbox e = outbox.get(i);
      if (e.split().equals(entry.split()) && e.offset().equals(entry.offset())) {
        outbox.set(i, entry);
        return;
      }
    }
    outbox.add(entry);
  }

  /** Replaces the pending entry of the same message, or adds it. */
  void replacePending(Pending entry) {
    for (int i = 0; i < pending.size(); i++) {
      Pending e = pending.get(i);
      if (e.split().equals(entry.split()) && e.id().equals(entry.id())) {
        pending.set(i, entry);
        return;
      }
    }
    pending.add(entry);
  }

  List<Pending> pending() {
    return pending;
  }

  void addPending(Pending entry) {
    pending.add(entry);
  }

  /**
   * Forgets pending messages applied before {@code before} (the retention): a message is not handed
   * over again that late.
   */
  void forgetOlder(long before) {
    pending.removeIf(entry -> entry.atMillis() < before);
  }

  /** Drops the pending entries whose receipt is known written. */
  void confirm(Predicate<Pending> hasReceipt) {
    pending.removeIf(hasReceipt);
  }

  /** The ids of pending messages of {@code split}. */
  Set<String> pendingIds(String split) {
    Set<String> ids = new java.util.HashSet<>();
    pending.stream().filter(p -> p.split().equals(split)).forEach(p -> ids.add(p.id()));
    return ids;
  }
}
