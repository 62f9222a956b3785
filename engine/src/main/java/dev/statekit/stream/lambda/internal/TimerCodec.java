package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.lambda.internal.BatchWindowOperator.Opened;
import dev.statekit.stream.serde.Serde;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The windows a batch opened, as timer items: each window with its key, in parts well under
 * DynamoDB's item limit, the item id starting with the earliest window end so that a query in id
 * order finds due windows first. An item holds its windows in order of end, so that a firing
 * through any time takes a prefix of it and leaves the rest of its bytes as they are.
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
    Set<Opened> unique = new LinkedHashSet<>(Sized.capacity(opened.size()));
    unique.addAll(opened);
    List<Opened> distinct = new ArrayList<>(unique);
    // Stable: windows ending together keep the order they were opened in.
    distinct.sort(BY_END);
    // A sliding window's record opens several windows of one key: encode the key once.
    Map<Object, byte[]> keys = new HashMap<>(Sized.capacity(distinct.size()));
    try {
      ByteSink bytes = new ByteSink(256);
      DataOutputStream out = new DataOutputStream(bytes);
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (int i = 0; i < distinct.size(); i++) {
        Opened window = distinct.get(i);
        byte[] key = keys.computeIfAbsent(window.key(), keySerde::encode);
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
   * ending after it would. The windows ending after it are the item's last ones, so the rest is the
   * item's bytes from the first of them, neither decoded nor written again: an item is read once
   * per window end it holds (a sliding window's record opens several), and decoding and writing its
   * rest each time was most of firing from the index. An item whose windows are not in order of end
   * is split by decoding it.
   */
  Split split(TimerItem item, long upTo) {
    byte[] timers = item.timers();
    List<Opened> due = new ArrayList<>();
    int restAt = -1;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    // A buffer, not a DataInputStream: every read of that takes the stream's lock, and the whole
    // item is read once per end it holds.
    ByteBuffer in = ByteBuffer.wrap(timers);
    try {
      while (in.hasRemaining()) {
        int at = in.position();
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
          throw new EOFException("a key of " + length + " bytes at byte " + at);
        }
        in.position(at + 4 + length);
        TimeWindow window = new TimeWindow(in.getLong(), in.getLong());
        if (window.maxTimestamp() > upTo) {
          restAt = restAt < 0 ? at : restAt;
          min = Math.min(min, window.maxTimestamp());
          max = Math.max(max, window.maxTimestamp());
        } else if (restAt >= 0) {
          return splitByDecoding(item, upTo);
        } else {
          byte[] key = Arrays.copyOfRange(timers, at + 4, at + 4 + length);
          due.add(new Opened(keySerde.decode(key), window));
        }
      }
    } catch (EOFException | BufferUnderflowException e) {
      throw new UncheckedIOException(
          "Timer item " + item.id() + " is corrupt",
          e instanceof EOFException eof ? eof : new EOFException(e.toString()));
    }
    if (restAt < 0) {
      return new Split(due, null);
    }
    String suffix = item.id().substring(TimerItem.timePrefix(0).length());
    return new Split(
        due,
        new TimerItem(
            TimerItem.timePrefix(min) + suffix,
            min,
            max,
            Arrays.copyOfRange(timers, restAt, timers.length)));
  }

  /** {@link #split} of an item whose windows are not in order of end. */
  private Split splitByDecoding(TimerItem item, long upTo) {
    List<Opened> due = new ArrayList<>();
    List<Opened> rest = new ArrayList<>();
    for (Opened window : decode(item)) {
      (window.window().maxTimestamp() <= upTo ? due : rest).add(window);
    }
    return new Split(due, rest.isEmpty() ? null : rest(item, rest));
  }

  private static final Comparator<Opened> BY_END =
      Comparator.comparingLong(opened -> opened.window().maxTimestamp());

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
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
          throw new EOFException("a key of " + length + " bytes with " + in.available() + " left");
        }
        byte[] key = new byte[length];
        in.readFully(key);
        windows.add(new Opened(keySerde.decode(key), new TimeWindow(in.readLong(), in.readLong())));
      }
      return windows;
    } catch (IOException e) {
      throw new UncheckedIOException("Timer item " + item.id() + " is corrupt", e);
    }
  }
}
