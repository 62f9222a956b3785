package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.lambda.internal.BatchWindowOperator.Opened;
import dev.statekit.stream.state.internal.StateKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The due part of the timer index, as one query returned it: the windows to fire by key (every due
 * window of every item read); how far the query covered (every window ending at or before {@link
 * #through} is in it); the items the firing consumes (deleted once its results are delivered, so
 * that the next query reads the items after them however many share one window end); and, for items
 * with windows beyond the fire watermark, new items with just those ({@link #rests}), written
 * before the firing is delivered.
 */
final class IndexFire {
  /** Timer items read per query. */
  static final int LIMIT = 100;

  final long through;
  final long upTo;
  final Map<String, List<Opened>> windows = new LinkedHashMap<>();
  final List<String> covered = new ArrayList<>();
  final List<TimerItem> rests = new ArrayList<>();

  /**
   * @param due the query's answer, at most {@link #LIMIT} items in order of earliest window
   * @param after windows ending at or before this were delivered already
   * @param upTo the fire watermark
   * @param skip keys whose due windows are fired from memory
   */
  IndexFire(
      List<TimerItem> due,
      long after,
      long upTo,
      TimerCodec codec,
      PlanShape shape,
      Set<String> skip) {
    // The next item, if any was left out, has no window before the last one read starts.
    this.through =
        due.size() < LIMIT ? upTo : Math.min(upTo, due.get(due.size() - 1).minTime() - 1);
    this.upTo = upTo;
    for (TimerItem item : due) {
      covered.add(item.id());
      TimerCodec.Split split = codec.split(item, upTo);
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
      if (remaining != null && rests.stream().noneMatch(r -> r.id().equals(remaining.id()))) {
        rests.add(remaining);
      }
    }
  }
}
