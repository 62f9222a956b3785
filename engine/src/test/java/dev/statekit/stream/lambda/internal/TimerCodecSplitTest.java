package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.lambda.internal.BatchWindowOperator.Opened;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link TimerCodec#split} must leave exactly what decoding an item and writing the rest of its
 * windows leaves ({@link TimerCodec#decode}, {@link TimerCodec#rest}): the same windows due, in the
 * same order, and a rest item with the same id, times and bytes, since two invocations that fire
 * one item must write one rest.
 */
class TimerCodecSplitTest {
  @SuppressWarnings("unchecked")
  private static final Serde<Object> KEYS = (Serde<Object>) (Serde<?>) Serdes.string();

  private final TimerCodec codec = new TimerCodec(KEYS);

  @Test
  void splitsAsDecodingAndWritingTheRestDo() {
    Random random = new Random(16);
    for (int round = 0; round < 2_000; round++) {
      List<Opened> opened = new ArrayList<>();
      int windows = 1 + random.nextInt(40);
      for (int i = 0; i < windows; i++) {
        String key = "card-" + random.nextInt(random.nextBoolean() ? 3 : 1000);
        long start = 60_000L * random.nextInt(20) - 600_000;
        long size = random.nextBoolean() ? 60_000 : 600_000;
        opened.add(new Opened(key, new TimeWindow(start, start + size)));
        if (random.nextInt(5) == 0) {
          opened.add(opened.get(random.nextInt(opened.size()))); // the same window again
        }
      }
      TimerItem item = codec.encode(opened, "transactions/shardId-" + round % 4).get(0);
      long upTo = item.minTime() + random.nextInt(3) * 60_000L + random.nextInt(2) - 1;

      TimerCodec.Split split = codec.split(item, upTo);

      List<Opened> due = new ArrayList<>();
      List<Opened> rest = new ArrayList<>();
      for (Opened window : codec.decode(item)) {
        (window.window().maxTimestamp() <= upTo ? due : rest).add(window);
      }
      assertEquals(due, split.due(), "round " + round);
      if (rest.isEmpty()) {
        assertNull(split.rest(), "round " + round);
      } else {
        TimerItem expected = codec.rest(item, rest);
        assertEquals(expected.id(), split.rest().id(), "round " + round);
        assertEquals(expected.minTime(), split.rest().minTime(), "round " + round);
        assertEquals(expected.maxTime(), split.rest().maxTime(), "round " + round);
        assertArrayEquals(expected.timers(), split.rest().timers(), "round " + round);
      }
    }
  }

  @Test
  void splitsEdgeItemsAsDecodingAndWritingTheRestDo() {
    Random random = new Random(1616);
    String[] keys = {
      "", "\u0000", "k\u0000k", "\uD83D\uDE00", "\u00e9t\u00e9", "card-1", "card-1 "
    };
    long[] watermarks = {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0};
    for (int round = 0; round < 500; round++) {
      List<Opened> opened = new ArrayList<>();
      int windows = 1 + random.nextInt(round % 50 == 0 ? 20_000 : 30);
      for (int i = 0; i < windows; i++) {
        String key = keys[random.nextInt(keys.length)];
        long start = 1_000L * (random.nextInt(7) - 3);
        opened.add(
            new Opened(key, new TimeWindow(start, start + 1_000L * (1 + random.nextInt(3)))));
        if (random.nextInt(3) == 0) {
          opened.add(opened.get(random.nextInt(opened.size())));
        }
      }
      TimerItem item = codec.encode(opened, "queue#a/b").get(0);
      long upTo =
          random.nextBoolean()
              ? watermarks[random.nextInt(watermarks.length)]
              : item.minTime() + 1_000L * random.nextInt(4) + random.nextInt(3) - 1;
      assertSameSplit(item, upTo, "round " + round + " upTo " + upTo);
      // exactly at the end of one of the windows it holds
      List<Opened> held = codec.decode(item);
      for (Opened window : held.subList(0, Math.min(5, held.size()))) {
        assertSameSplit(item, window.window().maxTimestamp(), "round " + round + " at an end");
      }
    }
  }

  private void assertSameSplit(TimerItem item, long upTo, String what) {
    TimerCodec.Split split = codec.split(item, upTo);
    List<Opened> due = new ArrayList<>();
    List<Opened> rest = new ArrayList<>();
    for (Opened window : codec.decode(item)) {
      (window.window().maxTimestamp() <= upTo ? due : rest).add(window);
    }
    assertEquals(due, split.due(), what);
    if (rest.isEmpty()) {
      assertNull(split.rest(), what);
      return;
    }
    TimerItem expected = codec.rest(item, rest);
    assertEquals(expected.id(), split.rest().id(), what);
    assertEquals(expected.minTime(), split.rest().minTime(), what);
    assertEquals(expected.maxTime(), split.rest().maxTime(), what);
    assertArrayEquals(expected.timers(), split.rest().timers(), what);
    // and the rest splits again as itself
    TimerCodec.Split again = codec.split(split.rest(), upTo);
    assertEquals(List.of(), again.due(), what);
    assertArrayEquals(split.rest().timers(), again.rest().timers(), what);
  }

  @Test
  void anItemHoldsItsWindowsInOrderOfEndThoseEndingTogetherAsOpened() {
    List<Opened> opened =
        List.of(
            new Opened("c", new TimeWindow(0, 3_000)),
            new Opened("b", new TimeWindow(0, 1_000)),
            new Opened("a", new TimeWindow(1_000, 2_000)),
            new Opened("z", new TimeWindow(0, 1_000)),
            new Opened("b", new TimeWindow(0, 1_000)));
    TimerItem item = codec.encode(opened, "s").get(0);
    assertEquals(
        List.of(opened.get(1), opened.get(3), opened.get(2), opened.get(0)), codec.decode(item));
  }

  /** Items an earlier version wrote hold windows in the order they were opened. */
  @Test
  void anItemNotInOrderOfEndSplitsAsDecodingDoes() throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
    long[][] windows = {{0, 3_000}, {0, 1_000}, {1_000, 2_000}, {0, 1_000}};
    String[] keys = {"c", "b", "a", "z"};
    for (int i = 0; i < keys.length; i++) {
      byte[] key = KEYS.encode(keys[i]);
      out.writeInt(key.length);
      out.write(key);
      out.writeLong(windows[i][0]);
      out.writeLong(windows[i][1]);
    }
    TimerItem item =
        new TimerItem(TimerItem.timePrefix(999) + "#s#f", 999, 2_999, bytes.toByteArray());
    for (long upTo : new long[] {998, 999, 1_999, 2_999}) {
      TimerCodec.Split split = codec.split(item, upTo);
      List<Opened> due = new ArrayList<>();
      List<Opened> rest = new ArrayList<>();
      for (Opened window : codec.decode(item)) {
        (window.window().maxTimestamp() <= upTo ? due : rest).add(window);
      }
      assertEquals(due, split.due(), "up to " + upTo);
      if (rest.isEmpty()) {
        assertNull(split.rest(), "up to " + upTo);
        continue;
      }
      assertEquals(
          new java.util.HashSet<>(rest), new java.util.HashSet<>(codec.decode(split.rest())));
      assertEquals(rest.size(), codec.decode(split.rest()).size(), "up to " + upTo);
      long min = rest.stream().mapToLong(w -> w.window().maxTimestamp()).min().getAsLong();
      assertEquals(TimerItem.timePrefix(min) + "#s#f", split.rest().id(), "up to " + upTo);
      assertEquals(min, split.rest().minTime(), "up to " + upTo);
      assertEquals(2_999, split.rest().maxTime(), "up to " + upTo);
      assertArrayEquals(split.rest().timers(), codec.split(item, upTo).rest().timers());
    }
    TimerCodec.Split split = codec.split(item, 999);
    assertEquals(
        List.of(
            new Opened("b", new TimeWindow(0, 1_000)), new Opened("z", new TimeWindow(0, 1_000))),
        split.due());
    assertEquals(
        List.of(
            new Opened("a", new TimeWindow(1_000, 2_000)),
            new Opened("c", new TimeWindow(0, 3_000))),
        codec.decode(split.rest()));
    assertEquals(TimerItem.timePrefix(1_999) + "#s#f", split.rest().id());
  }

  @Test
  void aCorruptItemIsReportedAsDecodingReportsIt() {
    TimerItem item =
        codec.encode(List.of(new Opened("card-1", new TimeWindow(0, 1_000))), "s").get(0);
    byte[] cut = java.util.Arrays.copyOf(item.timers(), item.timers().length - 3);
    TimerItem corrupt = new TimerItem(item.id(), item.minTime(), item.maxTime(), cut);
    java.io.UncheckedIOException decoding =
        org.junit.jupiter.api.Assertions.assertThrows(
            java.io.UncheckedIOException.class, () -> codec.decode(corrupt));
    java.io.UncheckedIOException splitting =
        org.junit.jupiter.api.Assertions.assertThrows(
            java.io.UncheckedIOException.class, () -> codec.split(corrupt, 0));
    assertEquals(decoding.getMessage(), splitting.getMessage());
  }
}
