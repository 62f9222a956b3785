package dev.statekit.stream.internal;

import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.serde.Serde;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * How timers are stored: the timers one worker set for one time between two checkpoints form an
 * item (split in parts under the item size limit), written once at the checkpoint and never
 * changed, so a checkpoint writes only the timers set since the last one. The item key says what a
 * restore needs to judge an item without reading it: {@code <time>#<checkpoint>#<worker>#<part>}.
 */
final class TimerItems {
  /** Bytes of timers per item part, well under DynamoDB's 400 KB item limit. */
  static final int PART_BYTES = 256 * 1024;

  private TimerItems() {}

  /**
   * An item's key, parsed.
   *
   * @param time when its timers are due
   * @param checkpoint the checkpoint that wrote it
   * @param worker the worker that wrote it
   */
  record Key(long time, long checkpoint, int worker) {
    static Key parse(String key) {
      String[] parts = key.split("#");
      if (parts.length != 4) {
        throw new IllegalStateException("'" + key + "' is not a timer item key");
      }
      return new Key(
          Long.parseLong(parts[0]), Long.parseLong(parts[1]), Integer.parseInt(parts[2]));
    }

    String withPart(int part) {
      return time + "#" + checkpoint + "#" + worker + "#" + part;
    }
  }

  /** Encodes {@code timers[from, to)} into parts of at most about {@link #PART_BYTES}. */
  static List<byte[]> encode(
      List<Object> timers, int from, int to, Serde<Object> keySerde, boolean sessions) {
    List<byte[]> parts = new ArrayList<>();
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      for (int i = from; i < to; i++) {
        Object timer = timers.get(i);
        Object key = sessions ? ((EventTimers.SessionTimer) timer).key() : timer;
        byte[] k = keySerde.encode(key);
        out.writeInt(k.length);
        out.write(k);
        if (sessions) {
          TimeWindow window = ((EventTimers.SessionTimer) timer).window();
          out.writeLong(window.start());
          out.writeLong(window.end());
        }
        if (bytes.size() >= PART_BYTES) {
          parts.add(bytes.toByteArray());
          bytes.reset();
        }
      }
      if (bytes.size() > 0) {
        parts.add(bytes.toByteArray());
      }
      return parts;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Hands each timer of a part to {@code out}. */
  static void decode(byte[] part, Serde<Object> keySerde, boolean sessions, Consumer<Object> out) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(part));
      while (in.available() > 0) {
        byte[] k = new byte[in.readInt()];
        in.readFully(k);
        Object key = keySerde.decode(k);
        out.accept(
            sessions
                ? new EventTimers.SessionTimer(key, new TimeWindow(in.readLong(), in.readLong()))
                : key);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("A stored timer item is corrupt", e);
    }
  }
}
