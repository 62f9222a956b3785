package dev.statekit.stream.internal;

import dev.statekit.stream.Serde;
import dev.statekit.stream.TimeWindow;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The event-time timers of one window operator on one worker, bucketed by time: windows of fixed
 * size share their end, so registering a timer is one map lookup and one list append, and each
 * timer holds only the key (sessions also hold their window).
 */
final class EventTimers {
  /** A session window's timer. */
  record SessionTimer(Object key, TimeWindow window) {}

  private final TreeMap<Long, ArrayList<Object>> buckets = new TreeMap<>();
  private final boolean sessions;

  EventTimers(boolean sessions) {
    this.sessions = sessions;
  }

  void add(long time, Object timer) {
    ArrayList<Object> bucket = buckets.get(time);
    if (bucket == null) {
      bucket = new ArrayList<>();
      buckets.put(time, bucket);
    }
    bucket.add(timer);
  }

  /** Removes and returns the earliest bucket due at {@code watermark}, or null. */
  Map.Entry<Long, ArrayList<Object>> pollDue(long watermark) {
    if (buckets.isEmpty() || buckets.firstKey() > watermark) {
      return null;
    }
    return buckets.pollFirstEntry();
  }

  byte[] snapshot(Serde<Object> keySerde) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(buckets.size());
      for (var bucket : buckets.entrySet()) {
        out.writeLong(bucket.getKey());
        out.writeInt(bucket.getValue().size());
        for (Object timer : bucket.getValue()) {
          Object key = sessions ? ((SessionTimer) timer).key() : timer;
          byte[] k = keySerde.encode(key);
          out.writeInt(k.length);
          out.write(k);
          if (sessions) {
            out.writeLong(((SessionTimer) timer).window().start());
            out.writeLong(((SessionTimer) timer).window().end());
          }
        }
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Adds the timers of a snapshot whose keys pass {@code owned}. */
  void restore(byte[] data, Serde<Object> keySerde, Predicate<Object> owned) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
      for (int b = in.readInt(); b > 0; b--) {
        long time = in.readLong();
        for (int n = in.readInt(); n > 0; n--) {
          byte[] k = new byte[in.readInt()];
          in.readFully(k);
          Object key = keySerde.decode(k);
          Object timer = key;
          if (sessions) {
            timer = new SessionTimer(key, new TimeWindow(in.readLong(), in.readLong()));
          }
          if (owned.test(key)) {
            add(time, timer);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("A stored timer snapshot is corrupt", e);
    }
  }
}
