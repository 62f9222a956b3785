package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Invariant 2 (nothing lost) across a rolling deploy or a rollback (an alias shifting traffic runs
 * both versions at once). Kept outputs with a record key or id past 65,535 bytes are now written in
 * a long format, told apart only by a negative count, while the bookkeeping still says format 3.
 * The previous release reads format 3 and loops {@code for (n = readInt(); n > 0; n--)}: a negative
 * count is an empty list. It does not refuse the item ("let the pipeline drain", what the format
 * byte is for): it reads the key's kept outputs as none, the bytes after them as the next counts
 * (here the pending count comes out negative), and the decode succeeds. A retried batch then
 * redelivers nothing of the record, and the old process's write of the key drops the outputs for
 * good.
 *
 * <p>Schedule: the new version applies a record whose output has a 70,000-byte key and keeps it
 * (its batch not checkpointed yet); the retry of that batch lands on a process of the previous
 * release, which decodes the key's bookkeeping.
 */
class LongOutputsReadByThePreviousReleaseTest {
  @Test
  void thePreviousReleaseRefusesALongListOrReadsIt() throws IOException {
    KeyBook book = KeyBook.decode(null);
    book.mark("s/1", "100");
    book.addOutbox(
        new KeyBook.Outbox(
            "s/1",
            "100",
            7,
            List.of(
                new StoredOutput(
                    "test/out", "p/s/1/100/0/0", "k1", "k".repeat(70_000), new byte[] {1}))));
    byte[] bytes = book.encode();

    PreviousRelease.Book read;
    try {
      read = PreviousRelease.decode(bytes);
    } catch (IllegalStateException | IOException refusedClearly) {
      return; // refusing is right: the batch fails and comes again to a process of the new version
    }
    assertEquals(
        1,
        read.outbox.get(0).outputs.size(),
        "the previous release read the key's kept output as none, without an error");
  }

  /**
   * KeyBook.decode and StoredOutput.readAll as of 52bd862 (before today), verbatim in substance.
   */
  static final class PreviousRelease {
    record Output(String route, String id, String source, String key, byte[] value) {}

    record Entry(String split, String offset, long at, List<Output> outputs) {}

    static final class Book {
      final List<Entry> outbox = new ArrayList<>();
      final List<Entry> pending = new ArrayList<>();
    }

    static Book decode(byte[] bytes) throws IOException {
      Book book = new Book();
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
      int format = in.readByte();
      if (format != 3 && format != 2) {
        throw new IllegalStateException("A key item's bookkeeping has format " + format);
      }
      for (int n = in.readInt(); n > 0; n--) {
        in.readUTF();
        in.readUTF();
      }
      for (int n = in.readInt(); n > 0; n--) {
        in.readUTF();
        if (in.readBoolean()) {
          in.readUTF();
        }
        in.readUTF();
        in.readBoolean();
      }
      for (int n = in.readInt(); n > 0; n--) {
        book.outbox.add(new Entry(in.readUTF(), in.readUTF(), in.readLong(), readAll(in)));
      }
      for (int n = in.readInt(); n > 0; n--) {
        book.pending.add(new Entry(in.readUTF(), in.readUTF(), in.readLong(), readAll(in)));
      }
      return book;
    }

    static List<Output> readAll(DataInputStream in) throws IOException {
      List<Output> outputs = new ArrayList<>();
      String before = null;
      for (int n = in.readInt(); n > 0; n--) {
        short index = in.readShort();
        String route;
        if (index == -1) {
          route = in.readUTF();
        } else if (index == -2) {
          if (before == null) {
            throw new IOException("an output names the route of none before it");
          }
          route = before;
        } else if (index >= 0) {
          route = "#" + index;
        } else {
          throw new IOException("an output's route is " + index);
        }
        String id = in.readUTF();
        String source = in.readUTF();
        String key = in.readBoolean() ? in.readUTF() : null;
        byte[] value = new byte[in.readInt()];
        in.readFully(value);
        outputs.add(new Output(route, id, source, key, value));
        before = route;
      }
      return outputs;
    }
  }
}
