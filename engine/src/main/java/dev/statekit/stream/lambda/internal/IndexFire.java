package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.lambda.internal.BatchWindowOperator.Opened;
import dev.statekit.stream.state.internal.StateKeys;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * The due part of the timer index, as one query returned it: the windows to fire by key (every due
 * window of every item read, through {@link #through}); how far the firing goes (every window
 * ending at or before {@link #through} is in it, and none after it fires, so that the next round,
 * which starts after it, fires no window twice); the items the firing consumes (deleted once its
 * results are delivered, so that the next query reads the items after them); and, for items with
 * windows beyond {@link #through}, new items with just those ({@link #rests}), written before the
 * firing is delivered.
 */
final class IndexFire {
  final long through;
  final long upTo;
  final Map<String, List<Opened>> windows = new LinkedHashMap<>();
  final List<String> covered = new ArrayList<>();
  final List<TimerItem> rests = new ArrayList<>();
  private final Set<String> restIds = new HashSet<>();

  /**
   * @param page the query's answer for {@code upTo}, at most {@code limit} items in order of
   *     earliest window
   * @param limit the most items the query could return
   * @param allDueBy every item whose earliest window ends at or before the time given, however
   *     many: read when {@code page} is full of items of the first due window end, which a firing
   *     must fire for every key at once
   * @param after windows ending at or before this were delivered already
   * @param upTo the fire watermark
   * @param skip keys whose due windows are fired from memory
   */
  IndexFire(
      List<TimerItem> page,
      int limit,
      LongFunction<List<TimerItem>> allDueBy,
      long after,
      long upTo,
      TimerCodec codec,
      PlanShape shape,
      Set<String> skip) {
    List<TimerItem> due = page;
    long bound = upTo;
    if (page.size() >= limit) {
      // Items left out may hold windows ending at or after the last one read starts, of keys read.
      long last = page.get(page.size() - 1).minTime();
      bound = Math.min(upTo, last - 1);
      if (bound <= after) {
        bound = Math.min(upTo, Math.max(last, after + 1));
        due = allDueBy.apply(bound);
      }
    }
    this.through = bound;
    this.upTo = upTo;
    for (TimerItem item : due) {
      if (item.minTime() > through) {
        continue; // none of it fires now: it stays for a later round
      }
      covered.add(item.id());
      TimerCodec.Split split = codec.split(item, through);
      for (Opened opened : split.due()) {
        if (opened.window().maxTimestamp() > after) {
          String key = StateKeys.encode(opened.key(), shape.keySerde());
          if (!skip.contains(key)) {
            windows.computeIfAbsent(key, k -> new ArrayList<>()).add(opened);
          }
        }
      }
      TimerItem remaining = split.rest();
      // An item and the rest of it an earlier firing wrote leave the same rest: write it once.
      if (remaining != null && restIds.add(remaining.id())) {
        rests.add(remaining);
      }
    }
  }
}
