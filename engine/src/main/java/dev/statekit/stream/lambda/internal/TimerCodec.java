package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.lambda.internal.BatchWindowOperator.Opened;
import dev.statekit.stream.serde.Serde;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The windows a batch opened, as timer items: each window with its key, in parts well under
 * DynamoDB's item limit, the item id starting with the earliest window end so that a query in id
 * order finds due windows first.
 */
final class TimerCodec {
  /** Bytes of windows per item. */
  static final int PART_BYTES = 256 * 1024;

  private final Serde<Object> keySerde;

  TimerCodec(Serde<Object> keySerde) {
    this.keySerde = keySerde;
  }

  /**
   * Items holding {@code opened} (repeats dropped). Ids end with {@code source} and a fingerprint
   * of the content, so that items with other windows never overwrite each other (a retried batch
   * may open fewer windows than its first attempt wrote).
   */
  List<TimerItem> encode(List<Opened> opened, String source) {
    return encode(opened, source, PART_BYTES, true);
  }

  /** {@code fingerprinted}: whether ids end with the content's fingerprint (else the caller's). */
  private List<TimerItem> encode(
      List<Opened> opened, String suffix, int partBytes, boolean fingerprinted) {
    List<TimerItem> items = new ArrayList<>();
    List<Opened> distinct = new ArrayList<>(new LinkedHashSet<>(opened));
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      Object lastKey = null;
      byte[] key = null;
      for (int i = 0; i < distinct.size(); i++) {
        Opened window = distinct.get(i);
        // A key's windows come one after another (a sliding window opens several): encode it once.
        if (key == null || !java.util.Objects.equals(window.key(), lastKey)) {
          lastKey = window.key();
          key = keySerde.encode(lastKey);
        }
        out.writeInt(key.length);
        out.write(key);
        out.writeLong(window.window().start());
        out.writeLong(window.window().end());
        min = Math.min(min, window.window().maxTimestamp());
        max = Math.max(max, window.window().maxTimestamp());
        if (bytes.size() >= partBytes || i == distinct.size() - 1) {
          byte[] content = bytes.toByteArray();
          String id =
              TimerItem.timePrefix(min)
                  + "#"
                  + suffix
                  + (fingerprinted ? "#" + fingerprint(content) : "");
          items.add(new TimerItem(id, min, max, content));
          bytes.reset();
          min = Long.MAX_VALUE;
          max = Long.MIN_VALUE;
        }
      }
      return items;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The windows of {@code item} still to fire, as an item whose id keeps the original's suffix (so
   * that two invocations that fire the same item write the same rest).
   */
  TimerItem rest(TimerItem item, List<Opened> rest) {
    // Its id is the original's: no fingerprint to compute.
    TimerItem encoded = encode(rest, "r", Integer.MAX_VALUE, false).get(0);
    String suffix = item.id().substring(TimerItem.timePrefix(0).length());
    return new TimerItem(
        TimerItem.timePrefix(encoded.minTime()) + suffix,
        encoded.minTime(),
        encoded.maxTime(),
        encoded.timers());
  }

  /**
   * An item's windows split at the fire watermark {@code upTo}.
   *
   * @param due the windows ending at or before it, decoded
   * @param rest the others as {@link #rest} writes them, or null if there are none
   */
  record Split(List<Opened> due, TimerItem rest) {}

  /**
   * Splits {@code item} at {@code upTo}, as {@link #decode} and then {@link #rest} of the windows
   * ending after it would, without decoding the rest's keys to encode them again: each item is read
   * once per window end it holds (a sliding window's record opens several), and that round trip was
   * most of firing from the index.
   */
  Split split(TimerItem item, long upTo) {
    List<Opened> due = new ArrayList<>();
    ByteArrayOutputStream rest = new ByteArrayOutputStream();
    java.util.Set<RawWindow> kept = new java.util.HashSet<>();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(item.timers()));
      DataOutputStream out = new DataOutputStream(rest);
      while (in.available() > 0) {
        byte[] key = new byte[in.readInt()];
        in.readFully(key);
        TimeWindow window = new TimeWindow(in.readLong(), in.readLong());
        if (window.maxTimestamp() <= upTo) {
          due.add(new Opened(keySerde.decode(key), window));
        } else if (kept.add(new RawWindow(java.nio.ByteBuffer.wrap(key), window))) {
          out.writeInt(key.length);
          out.write(key);
          out.writeLong(window.start());
          out.writeLong(window.end());
          min = Math.min(min, window.maxTimestamp());
          max = Math.max(max, window.maxTimestamp());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Timer item " + item.id() + " is corrupt", e);
    }
    if (kept.isEmpty()) {
      return new Split(due, null);
    }
    String suffix = item.id().substring(TimerItem.timePrefix(0).length());
    return new Split(
        due, new TimerItem(TimerItem.timePrefix(min) + suffix, min, max, rest.toByteArray()));
  }

  /** A window with its key's bytes, for keeping each once as {@link #encode} does. */
  private record RawWindow(java.nio.ByteBuffer key, TimeWindow window) {}

  private static String fingerprint(byte[] content) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(content);
      return HexFormat.of().formatHex(digest, 0, 10);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("The JDK has no SHA-256", e);
    }
  }

  /** The windows in an item. */
  List<Opened> decode(TimerItem item) {
    List<Opened> windows = new ArrayList<>();
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(item.timers()));
      while (in.available() > 0) {
        byte[] key = new byte[in.readInt()];
        in.readFully(key);
        windows.add(new Opened(keySerde.decode(key), new TimeWindow(in.readLong(), in.readLong())));
      }
      return windows;
    } catch (IOException e) {
      throw new UncheckedIOException("Timer item " + item.id() + " is corrupt", e);
    }
  }
}
