package dev.statekit.stream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A brute-force model of event-time windows: replays the input in arrival order with the watermark
 * the engine has before each record (the highest timestamp of earlier polls, minus the bound, minus
 * one) and lists each window's values directly.
 */
final class WindowReference {
  final List<String> results = new ArrayList<>();
  final List<Event> late = new ArrayList<>();

  static WindowReference run(List<Event> input, int pollSize, long bound, Windows windows) {
    WindowReference ref = new WindowReference();
    long maxSeen = Long.MIN_VALUE;
    long watermark = Long.MIN_VALUE;
    Map<String, List<long[]>> sessions = new HashMap<>(); // per key: {start, end, sum, count}
    Map<String, Map<Long, long[]>> fixed = new HashMap<>(); // per key: start -> {sum, count}
    for (int i = 0; i < input.size(); i++) {
      if (i % pollSize == 0 && maxSeen != Long.MIN_VALUE) {
        watermark = Math.max(watermark, maxSeen - bound - 1);
        if (windows.kind() == Windows.Kind.SESSION) {
          ref.fireSessions(sessions, watermark);
        }
      }
      Event e = input.get(i);
      maxSeen = Math.max(maxSeen, e.time());
      if (windows.kind() == Windows.Kind.SESSION) {
        ref.addSession(sessions, e, windows.size(), watermark);
      } else {
        boolean accepted = false;
        for (long start = e.time() - Math.floorMod(e.time(), windows.slide());
            start > e.time() - windows.size();
            start -= windows.slide()) {
          if (start + windows.size() - 1 > watermark) {
            long[] acc =
                fixed
                    .computeIfAbsent(e.key(), k -> new HashMap<>())
                    .computeIfAbsent(start, s -> new long[2]);
            acc[0] += e.value();
            acc[1]++;
            accepted = true;
          }
        }
        if (!accepted) {
          ref.late.add(e);
        }
      }
    }
    fixed.forEach(
        (key, byStart) ->
            byStart.forEach(
                (start, acc) ->
                    ref.results.add(line(key, start, start + windows.size(), acc[0], acc[1]))));
    ref.fireSessions(sessions, Long.MAX_VALUE);
    return ref;
  }

  private void addSession(Map<String, List<long[]>> sessions, Event e, long gap, long watermark) {
    // Late only if the session the record would merge into has fired (as Flink checks it).
    List<long[]> open = sessions.computeIfAbsent(e.key(), k -> new ArrayList<>());
    long[] merged = {e.time(), e.time() + gap, e.value(), 1};
    List<long[]> absorbed = new ArrayList<>();
    for (long[] s : open) {
      if (s[0] <= merged[1] && merged[0] <= s[1]) {
        absorbed.add(s);
        merged =
            new long[] {
              Math.min(s[0], merged[0]),
              Math.max(s[1], merged[1]),
              s[2] + merged[2],
              s[3] + merged[3]
            };
      }
    }
    if (merged[1] - 1 <= watermark) {
      late.add(e);
      return;
    }
    open.removeAll(absorbed);
    open.add(merged);
  }

  private void fireSessions(Map<String, List<long[]>> sessions, long watermark) {
    sessions.forEach(
        (key, open) ->
            open.removeIf(
                s -> {
                  if (s[1] - 1 <= watermark) {
                    results.add(line(key, s[0], s[1], s[2], s[3]));
                    return true;
                  }
                  return false;
                }));
  }

  static String line(Object key, long start, long end, long sum, long count) {
    return key + "[" + start + "," + end + ") sum=" + sum + " n=" + count;
  }
}
