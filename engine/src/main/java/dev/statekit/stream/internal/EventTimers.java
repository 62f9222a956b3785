package dev.statekit.stream.internal;

import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.state.CheckpointLineage;
import dev.statekit.stream.state.StateTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The event-time timers of one window operator on one worker, bucketed by time: windows of fixed
 * size share their end, so registering a timer is one map lookup and one list append, and each
 * timer holds only the key (sessions also hold their window).
 *
 * <p>Timers are checkpointed by reference, like keyed state: at a barrier only the timers set since
 * the last one are written, as new items ({@link TimerItems}) in the state table's collection of
 * the operator. A bucket that fired is dead once a checkpoint taken after it completes (every later
 * restore starts past its time), and its items are deleted then. A restore lists the collection and
 * keeps the items of checkpoints in its lineage that are not yet due.
 */
final class EventTimers {
  /** A session window's timer. */
  record SessionTimer(Object key, TimeWindow window) {}

  /** The timers due at one time, and the stored items this worker deletes once they fired. */
  private static final class Bucket {
    final long time;
    final ArrayList<Object> timers = new ArrayList<>();
    final List<String> items = new ArrayList<>();

    /** Timers {@code [0, stored)} are in items already. */
    int stored;

    /** True while in the list of buckets to write at the next barrier. */
    boolean changed;

    Bucket(long time) {
      this.time = time;
    }
  }

  private final TreeMap<Long, Bucket> buckets = new TreeMap<>();
  private final Set<Bucket> changed = new LinkedHashSet<>();

  /** The bucket of the last timer set: records in time order set many timers for one time. */
  private Bucket last;

  private final List<String> fired = new ArrayList<>();
  private final TreeMap<Long, List<String>> deadAfter = new TreeMap<>();
  private final boolean sessions;
  private final StateTable table;
  private final String collection;
  private final Serde<Object> keySerde;
  private final int worker;

  EventTimers(
      boolean sessions, StateTable table, String collection, Serde<Object> keySerde, int worker) {
    this.sessions = sessions;
    this.table = table;
    this.collection = collection;
    this.keySerde = keySerde;
    this.worker = worker;
  }

  void add(long time, Object timer) {
    Bucket bucket = last != null && last.time == time ? last : bucket(time);
    last = bucket;
    bucket.timers.add(timer);
    if (!bucket.changed) {
      bucket.changed = true;
      changed.add(bucket);
    }
  }

  private Bucket bucket(long time) {
    Bucket bucket = buckets.get(time);
    if (bucket == null) {
      bucket = new Bucket(time);
      buckets.put(time, bucket);
    }
    return bucket;
  }

  /** Removes and returns the timers of the earliest bucket due at {@code watermark}, or null. */
  Map.Entry<Long, ArrayList<Object>> pollDue(long watermark) {
    if (buckets.isEmpty() || buckets.firstKey() > watermark) {
      return null;
    }
    Bucket due = buckets.pollFirstEntry().getValue();
    if (due == last) {
      last = null;
    }
    if (due.changed) {
      changed.remove(due);
    }
    fired.addAll(due.items);
    return Map.entry(due.time, due.timers);
  }

  /** At the barrier of {@code checkpointId}: writes the timers set since the last barrier. */
  void flush(long checkpointId) {
    Map<String, byte[]> puts = new HashMap<>();
    for (Bucket bucket : changed) {
      bucket.changed = false;
      List<byte[]> parts =
          TimerItems.encode(bucket.timers, bucket.stored, bucket.timers.size(), keySerde, sessions);
      TimerItems.Key key = new TimerItems.Key(bucket.time, checkpointId, worker);
      for (int p = 0; p < parts.size(); p++) {
        puts.put(key.withPart(p), parts.get(p));
        bucket.items.add(key.withPart(p));
      }
      bucket.stored = bucket.timers.size();
    }
    changed.clear();
    if (!fired.isEmpty()) {
      deadAfter.put(checkpointId, new ArrayList<>(fired));
      fired.clear();
    }
    if (!puts.isEmpty()) {
      table.writeCollection(collection, puts, List.of());
    }
  }

  /** Checkpoint {@code checkpointId} is complete: items of buckets fired before it can go. */
  void checkpointComplete(long checkpointId) {
    Map<Long, List<String>> dead = deadAfter.headMap(checkpointId, true);
    if (dead.isEmpty()) {
      return;
    }
    List<String> deletes = new ArrayList<>();
    dead.values().forEach(deletes::addAll);
    dead.clear();
    table.writeCollection(collection, Map.of(), deletes);
  }

  /**
   * Restores the timers of the checkpoint that {@code lineage} ends with: items it includes and not
   * due at {@code watermark}, keeping the timers whose keys pass {@code owned}. Worker {@code w} of
   * {@code workers} looks after the items written by workers {@code w + k * workers}: it deletes
   * those that are dead or were written by checkpoints that never completed, and the others once
   * they fire.
   */
  void restore(CheckpointLineage lineage, long watermark, int workers, Predicate<Object> owned) {
    List<String> garbage = new ArrayList<>();
    for (var item : table.readCollection(collection).entrySet()) {
      TimerItems.Key key = TimerItems.Key.parse(item.getKey());
      boolean mine = key.worker() % workers == worker;
      if (!lineage.includes(key.checkpoint()) || key.time() <= watermark) {
        if (mine) {
          garbage.add(item.getKey());
        }
        continue;
      }
      Bucket bucket = mine ? bucket(key.time()) : buckets.get(key.time());
      if (mine) {
        bucket.items.add(item.getKey());
      }
      TimerItems.decode(
          item.getValue(),
          keySerde,
          sessions,
          timer -> {
            Object timerKey = sessions ? ((SessionTimer) timer).key() : timer;
            if (owned.test(timerKey)) {
              Bucket target = bucket != null ? bucket : bucket(key.time());
              target.timers.add(timer);
              target.stored++;
            }
          });
    }
    if (!garbage.isEmpty()) {
      table.writeCollection(collection, Map.of(), garbage);
    }
  }
}
