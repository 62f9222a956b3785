package dev.statekit.stream.lambda;

import dev.statekit.StateKitException;
import dev.statekit.stream.state.StateStoreException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A {@link BatchStore} in this process's memory, with the same conditions as the DynamoDB one: for
 * tests and for running pipelines on one machine. Receipts and attempts are dropped some time after
 * they expire, by the store's clock, as DynamoDB's TTL does. Thread-safe. Byte arrays are handed
 * over, never changed.
 */
public final class InMemoryBatchStore implements BatchStore {
  /**
   * Key items by pipeline, operator and key, and receipts by pipeline, split and id: nested, so
   * that a lookup hashes the key as given, with no scoped string built per key.
   */
  private final Map<String, Map<String, Map<String, KeyItem>>> keys = new HashMap<>();

  private final Map<String, TreeMap<String, SplitState>> splits = new HashMap<>();
  private final Map<String, TreeMap<String, TimerItem>> timers = new HashMap<>();
  private final Map<String, TreeMap<String, Attempt>> attempts = new HashMap<>();
  private final Map<String, TreeMap<String, DeferredMessage>> deferred = new HashMap<>();
  private final Map<Attempt, Long> attemptExpiries = new HashMap<>();

  /** The first offset of the latest batch recorded in order, sort key form, by pipeline#split. */
  private final Map<String, String> highestInOrder = new HashMap<>();

  private long attemptWrites;
  private final Map<String, Map<String, Map<String, Receipt>>> receipts = new HashMap<>();
  private final Clock clock;
  private int receiptWrites;

  private record Receipt(byte[] outputs, long expiresAt) {}

  /** A store whose receipts expire by the system clock. */
  public InMemoryBatchStore() {
    this(Clock.systemUTC());
  }

  /** A store whose receipts expire by {@code clock} (the pipeline's, in tests). */
  public InMemoryBatchStore(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** False: every call returns at once, without I/O. */
  @Override
  public boolean callsWait() {
    return false;
  }

  @Override
  public synchronized Map<String, KeyItem> readKeys(
      String pipeline, String operator, Collection<String> encodedKeys) {
    Map<String, KeyItem> found = new HashMap<>(encodedKeys.size() * 2);
    Map<String, KeyItem> scoped = scope(keys, pipeline, operator);
    for (String key : encodedKeys) {
      refuseIfLong(key);
      KeyItem item = scoped.get(key);
      if (item != null) {
        found.put(key, item);
      }
    }
    return found;
  }

  @Override
  public synchronized Set<String> writeKeys(
      String pipeline, String operator, List<KeyWrite> writes) {
    Set<String> conflicts = new HashSet<>();
    Map<String, KeyItem> scoped = scope(keys, pipeline, operator);
    writes.forEach(write -> refuseIfLong(write.key()));
    for (KeyWrite write : writes) {
      KeyItem stored = scoped.get(write.key());
      long version = stored == null ? 0 : stored.version();
      if (version != write.expectedVersion()) {
        conflicts.add(write.key());
        continue;
      }
      scoped.put(
          write.key(), new KeyItem(write.key(), version + 1, write.state(), write.bookkeeping()));
    }
    return conflicts;
  }

  @Override
  public synchronized List<SplitState> readSplits(String pipeline) {
    return new ArrayList<>(splits.getOrDefault(pipeline, new TreeMap<>()).values());
  }

  @Override
  public synchronized void putAttempt(
      String pipeline, String split, Attempt attempt, long expiresAt) {
    Attempt replaced =
        attempts
            .computeIfAbsent(pipeline + "#" + split, s -> new TreeMap<>())
            .put(Attempt.sortKey(attempt.first()), attempt);
    attemptExpiries.remove(replaced);
    attemptExpiries.put(attempt, expiresAt);
    // As DynamoDB's TTL would, some time after they expire.
    if (++attemptWrites % 10_000 == 0) {
      long now = clock.millis() / 1000;
      attemptExpiries.entrySet().removeIf(e -> e.getValue() > 0 && e.getValue() < now);
      attempts
          .values()
          .forEach(byFirst -> byFirst.values().removeIf(a -> !attemptExpiries.containsKey(a)));
    }
  }

  @Override
  public synchronized boolean putAttemptInOrder(
      String pipeline, String split, Attempt attempt, long expiresAt) {
    String first = Attempt.sortKey(attempt.first());
    String highest = highestInOrder.get(pipeline + "#" + split);
    if (highest != null && highest.compareTo(first) > 0) {
      return false;
    }
    highestInOrder.put(pipeline + "#" + split, first);
    putAttempt(pipeline, split, attempt, expiresAt);
    return true;
  }

  @Override
  public synchronized List<Attempt> latestAttempts(String pipeline, String split, int limit) {
    List<Attempt> latest = new ArrayList<>();
    for (Attempt attempt :
        attempts.getOrDefault(pipeline + "#" + split, new TreeMap<>()).descendingMap().values()) {
      if (latest.size() == limit) {
        break;
      }
      latest.add(attempt);
    }
    return latest;
  }

  @Override
  public synchronized List<Attempt> attempts(
      String pipeline, String split, String from, String to) {
    return new ArrayList<>(
        attempts
            .getOrDefault(pipeline + "#" + split, new TreeMap<>())
            .subMap(Attempt.sortKey(from), true, Attempt.sortKey(to), true)
            .values());
  }

  @Override
  public synchronized Map<String, byte[]> readReceipts(
      String pipeline, String split, Collection<String> ids) {
    Map<String, byte[]> found = new HashMap<>();
    Map<String, Receipt> scoped = scope(receipts, pipeline, split);
    for (String id : ids) {
      Receipt receipt = scoped.get(id);
      if (receipt != null) {
        found.put(id, receipt.outputs());
      }
    }
    return found;
  }

  @Override
  public synchronized void writeReceipts(
      String pipeline, String split, Map<String, byte[]> written, long expiresAt) {
    Map<String, Receipt> scoped = scope(receipts, pipeline, split);
    written.forEach((id, receipt) -> scoped.put(id, new Receipt(receipt, expiresAt)));
    // As DynamoDB's TTL would, some time after they expire.
    receiptWrites += written.size();
    if (receiptWrites > 10_000) {
      receiptWrites = 0;
      long now = clock.millis() / 1000;
      receipts
          .values()
          .forEach(
              bySplit ->
                  bySplit
                      .values()
                      .forEach(
                          byId ->
                              byId.values()
                                  .removeIf(r -> r.expiresAt() > 0 && r.expiresAt() < now)));
    }
  }

  @Override
  public synchronized void putDeferred(
      String pipeline, String split, List<DeferredMessage> messages) {
    TreeMap<String, DeferredMessage> stored =
        deferred.computeIfAbsent(splitKey(pipeline, split), s -> new TreeMap<>());
    messages.forEach(m -> stored.put(m.order(), m));
  }

  @Override
  public synchronized List<DeferredMessage> deferred(String pipeline, String split, int limit) {
    TreeMap<String, DeferredMessage> stored = deferred.get(splitKey(pipeline, split));
    return stored == null
        ? List.of()
        : stored.values().stream().limit(limit).collect(Collectors.toList());
  }

  @Override
  public synchronized DeferredMessage lastDeferred(String pipeline, String split) {
    TreeMap<String, DeferredMessage> stored = deferred.get(splitKey(pipeline, split));
    return stored == null || stored.isEmpty() ? null : stored.lastEntry().getValue();
  }

  @Override
  public synchronized void deleteDeferred(
      String pipeline, String split, Collection<String> orders) {
    TreeMap<String, DeferredMessage> stored = deferred.get(splitKey(pipeline, split));
    if (stored != null) {
      orders.forEach(stored::remove);
    }
  }

  private static String splitKey(String pipeline, String split) {
    return pipeline + "\n" + split;
  }

  @Override
  public synchronized boolean writeSplit(String pipeline, SplitState state) {
    TreeMap<String, SplitState> stored = splits.computeIfAbsent(pipeline, p -> new TreeMap<>());
    SplitState current = stored.get(state.split());
    long version = current == null ? 0 : current.version();
    if (version != state.version() - 1) {
      return false;
    }
    stored.put(state.split(), state);
    return true;
  }

  @Override
  public synchronized void putTimers(String pipeline, List<TimerItem> items) {
    TreeMap<String, TimerItem> stored = timers.computeIfAbsent(pipeline, p -> new TreeMap<>());
    items.forEach(item -> stored.put(item.id(), item));
  }

  @Override
  public synchronized List<TimerItem> timersDueBy(String pipeline, long time, int limit) {
    List<TimerItem> due = new ArrayList<>();
    for (TimerItem item : timers.getOrDefault(pipeline, new TreeMap<>()).values()) {
      if (item.minTime() > time || due.size() >= limit) {
        break;
      }
      due.add(item);
    }
    return due;
  }

  @Override
  public synchronized void deleteTimers(String pipeline, Collection<String> ids) {
    TreeMap<String, TimerItem> stored = timers.get(pipeline);
    if (stored != null) {
      ids.forEach(stored::remove);
    }
  }

  /** How many timer items a pipeline has (for tests). */
  public synchronized int timerItems(String pipeline) {
    return timers.getOrDefault(pipeline, new TreeMap<>()).size();
  }

  private static <V> Map<String, V> scope(
      Map<String, Map<String, Map<String, V>>> all, String pipeline, String inner) {
    return all.computeIfAbsent(pipeline, p -> new HashMap<>())
        .computeIfAbsent(inner, i -> new HashMap<>());
  }

  /**
   * DynamoDB refuses a request holding a key past its partition key, or one it cannot carry: so
   * does this store.
   */
  private static void refuseIfLong(String key) {
    String problem = BatchStore.keyProblem(key);
    if (problem != null) {
      throw new StateStoreException(
          StateKitException.Reason.INVALID_REQUEST, "A key refused: " + problem);
    }
  }
}
