package dev.statekit.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Keeps records in memory and makes them visible only when the checkpoint that covers them
 * completes, so a pipeline that fails and restores shows each record exactly once in {@link
 * #committed()}. Reuse the same instance for the restored run.
 *
 * @param <T> the records' value type
 */
public final class CollectingSink<T> implements Sink<T> {
  private final List<Record<T>> committed = new ArrayList<>();
  private final TreeMap<Long, List<Record<T>>> prepared = new TreeMap<>();

  CollectingSink() {}

  /** The committed records, in commit order. */
  public synchronized List<Record<T>> committed() {
    return List.copyOf(committed);
  }

  /** The committed records' values, in commit order. */
  public synchronized List<T> values() {
    return committed.stream().map(Record::value).toList();
  }

  @Override
  public synchronized void recover(long checkpointId) {
    commitUpTo(checkpointId);
    prepared.clear();
  }

  private synchronized void prepare(long checkpointId, List<Record<T>> records) {
    prepared.computeIfAbsent(checkpointId, id -> new ArrayList<>()).addAll(records);
  }

  private synchronized void commitUpTo(long checkpointId) {
    Map<Long, List<Record<T>>> done = prepared.headMap(checkpointId, true);
    done.values().forEach(committed::addAll);
    done.clear();
  }

  @Override
  public SinkWriter<T> open(int worker, int workers) {
    return new SinkWriter<>() {
      private final List<Record<T>> pending = new ArrayList<>();

      @Override
      public void write(Record<T> record) {
        pending.add(record);
      }

      @Override
      public void checkpoint(long checkpointId) {
        prepare(checkpointId, pending);
        pending.clear();
      }

      @Override
      public void checkpointComplete(long checkpointId) {
        commitUpTo(checkpointId);
      }
    };
  }

  @Override
  public String name() {
    return "collecting";
  }
}
