package dev.statekit.runtime.store;

import dev.statekit.function.Address;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The function store in this JVM's memory: the embedded default and the store of fast tests. It
 * keeps DynamoDB's rules — conditional commits, all-or-nothing timer changes, the transaction
 * limits, the same size limit counted the same way — so an application tested here behaves the same
 * on {@code DynamoDbFunctionStore}. Nothing survives the JVM.
 */
public final class InMemoryFunctionStore implements FunctionStore {
  private static final long MAX_STATE_BYTES = DynamoDbItemSize.DYNAMODB_ITEM_LIMIT - 1024;

  private final Map<Address, AddressState> states = new HashMap<>();
  private final Map<Integer, NavigableMap<String, Timer>> shards = new HashMap<>();
  private final Map<Integer, NavigableMap<String, OutboxEntry>> outboxes = new HashMap<>();
  private final Map<Address, Map<String, SpilledMark>> marks = new HashMap<>();

  /** An empty store. */
  public InMemoryFunctionStore() {}

  @Override
  public synchronized LoadResult load(Collection<Address> addresses, Collection<TimerKey> timers) {
    Set<TimerKey> existing = new HashSet<>();
    for (TimerKey timer : timers) {
      if (timerExists(timer)) {
        existing.add(timer);
      }
    }
    return new LoadResult(loadLatest(addresses), existing);
  }

  @Override
  public LoadResult loadLatest(Collection<Address> addresses, Collection<TimerKey> timers) {
    return load(addresses, timers); // never stale
  }

  @Override
  public synchronized Map<Address, AddressState> loadLatest(Collection<Address> addresses) {
    Map<Address, AddressState> found = new HashMap<>();
    for (Address address : addresses) {
      found.put(address, reload(address));
    }
    return found;
  }

  @Override
  public synchronized AddressState reload(Address address) {
    return states.getOrDefault(address, AddressState.absent(address));
  }

  @Override
  public synchronized boolean timerExists(TimerKey key) {
    return timers(key.shard()).containsKey(DynamoDbTimerItems.sortKey(key));
  }

  @Override
  public synchronized void commit(Commit commit) {
    AddressState state = commit.state();
    long size = sizeOf(state);
    if (size > MAX_STATE_BYTES) {
      throw new StateTooLargeException(state.address().toString(), size, MAX_STATE_BYTES);
    }
    CommitShape.check(commit);
    long stored = reload(state.address()).version();
    if (stored != commit.expectedVersion()) {
      throw new CommitConflictException(
          "Version "
              + commit.expectedVersion()
              + " of "
              + state.address()
              + " is outdated: "
              + stored
              + " is stored");
    }
    Map<Address, Set<String>> released = checkTimerChanges(commit);
    states.put(state.address(), state);
    for (TimerChange change : commit.timerChanges()) {
      if (change instanceof TimerChange.Schedule schedule) {
        Timer timer = schedule.timer();
        timers(timer.key().shard()).put(DynamoDbTimerItems.sortKey(timer.key()), timer);
      } else if (!(change instanceof TimerChange.ReleaseToken)) {
        TimerKey key = CommitShape.timerOf(change);
        timers(key.shard()).remove(DynamoDbTimerItems.sortKey(key));
      }
    }
    released.forEach(this::releaseTokens);
  }

  @Override
  public synchronized void registerOutboxes(OutboxKey key, Collection<Address> addresses) {
    String sortKey = DynamoDbOutboxItems.sortKey(key);
    OutboxEntry before = outboxes(key.shard()).get(sortKey);
    Set<Address> registered = new LinkedHashSet<>(addresses);
    if (before == null) {
      outboxes(key.shard())
          .put(sortKey, new OutboxEntry(key, registered, 1, Map.of(), Map.of(), 0));
      return;
    }
    registered.addAll(before.addresses());
    outboxes(key.shard())
        .put(
            sortKey,
            new OutboxEntry(
                key,
                registered,
                before.registrations() + 1,
                before.attempts(),
                before.out(),
                before.triedAtMillis()));
  }

  @Override
  public synchronized Optional<OutboxTries> outboxPending(OutboxKey key, Address address) {
    OutboxEntry entry = outboxes(key.shard()).get(DynamoDbOutboxItems.sortKey(key));
    return entry != null && entry.addresses().contains(address)
        ? Optional.of(entry.tries(address))
        : Optional.empty();
  }

  @Override
  public synchronized void settleOutboxes(OutboxKey key, Collection<Address> addresses) {
    outboxes(key.shard())
        .computeIfPresent(
            DynamoDbOutboxItems.sortKey(key),
            (k, entry) -> {
              Set<Address> left = new LinkedHashSet<>(entry.addresses());
              left.removeAll(addresses);
              Map<Address, Integer> attempts = new HashMap<>(entry.attempts());
              attempts.keySet().removeAll(addresses);
              Map<Address, Set<String>> out = new HashMap<>(entry.out());
              out.keySet().removeAll(addresses);
              return new OutboxEntry(
                  key, left, entry.registrations(), attempts, out, entry.triedAtMillis());
            });
  }

  @Override
  public synchronized boolean removeOutboxes(OutboxKey key, long registrations) {
    String sortKey = DynamoDbOutboxItems.sortKey(key);
    OutboxEntry entry = outboxes(key.shard()).get(sortKey);
    if (entry != null && registrations >= 0 && entry.registrations() != registrations) {
      return false;
    }
    outboxes(key.shard()).remove(sortKey);
    return true;
  }

  @Override
  public synchronized List<OutboxEntry> dueOutboxes(
      int shard, long dueBy, long triedBefore, int limit) {
    List<OutboxEntry> due = new ArrayList<>();
    for (OutboxEntry entry : outboxes(shard).headMap(SortedKeys.sortKeyAfter(dueBy)).values()) {
      if (due.size() == limit) {
        break;
      }
      if (entry.triedAtMillis() < triedBefore) {
        due.add(entry);
      }
    }
    return due;
  }

  @Override
  public synchronized void outboxesTried(
      OutboxKey key, Map<Address, Set<String>> tried, long triedAtMillis) {
    outboxes(key.shard())
        .computeIfPresent(
            DynamoDbOutboxItems.sortKey(key),
            (k, entry) -> {
              Map<Address, Integer> attempts = new HashMap<>(entry.attempts());
              Map<Address, Set<String>> out = new HashMap<>(entry.out());
              tried.forEach(
                  (address, items) -> {
                    attempts.merge(address, 1, Integer::sum);
                    Set<String> all = new HashSet<>(out.getOrDefault(address, Set.of()));
                    all.addAll(items);
                    out.put(address, all);
                  });
              return new OutboxEntry(
                  key, entry.addresses(), entry.registrations(), attempts, out, triedAtMillis);
            });
  }

  @Override
  public synchronized void spillMarks(Address address, Collection<SpilledMark> spilled) {
    Map<String, SpilledMark> kept = marks.computeIfAbsent(address, a -> new HashMap<>());
    for (SpilledMark mark : spilled) {
      SpilledMark before = kept.get(mark.id());
      if (before == null || !mark.ordered() || before.position().compareTo(mark.position()) < 0) {
        kept.put(mark.id(), mark);
      }
    }
  }

  @Override
  public synchronized Map<String, SpilledMark> spilledMarks(
      Address address, Collection<String> ids) {
    Map<String, SpilledMark> kept = marks.getOrDefault(address, Map.of());
    Map<String, SpilledMark> found = new HashMap<>();
    for (String id : ids) {
      SpilledMark mark = kept.get(id);
      if (mark != null) {
        found.put(id, mark);
      }
    }
    return found;
  }

  @Override
  public synchronized void dropTimer(TimerKey key, Address owner, String token) {
    if (timers(key.shard()).remove(DynamoDbTimerItems.sortKey(key)) == null || token == null) {
      return;
    }
    AddressState state = states.get(owner);
    if (state != null && key.equals(state.pendingTokens().get(token))) {
      releaseTokens(owner, Set.of(token));
    }
  }

  @Override
  public synchronized List<Timer> dueTimers(int shard, long dueBy, long sentBefore, int limit) {
    List<Timer> due = new ArrayList<>();
    for (Timer timer : timers(shard).headMap(SortedKeys.sortKeyAfter(dueBy)).values()) {
      if (due.size() == limit) {
        break;
      }
      if (timer.sentAtMillis() < sentBefore) {
        due.add(timer);
      }
    }
    return due;
  }

  @Override
  public synchronized void markSent(TimerKey key, long sentAtMillis) {
    timers(key.shard())
        .computeIfPresent(DynamoDbTimerItems.sortKey(key), (k, t) -> t.sentAt(sentAtMillis));
  }

  @Override
  public synchronized Optional<Timer> timer(TimerKey key) {
    return Optional.ofNullable(timers(key.shard()).get(DynamoDbTimerItems.sortKey(key)));
  }

  @Override
  public synchronized List<Timer> timersToWake(int shard, long after, long dueBy, int limit) {
    List<Timer> found = new ArrayList<>();
    for (Timer timer :
        timers(shard)
            .subMap(SortedKeys.sortKeyAfter(after), SortedKeys.sortKeyAfter(dueBy))
            .values()) {
      if (found.size() == limit) {
        break;
      }
      if (timer.wakeUpAtMillis() == 0) {
        found.add(timer);
      }
    }
    return found;
  }

  @Override
  public synchronized void markWokenUp(TimerKey key, long atMillis) {
    timers(key.shard())
        .computeIfPresent(DynamoDbTimerItems.sortKey(key), (k, t) -> t.wokenAt(atMillis));
  }

  @Override
  public long sizeOf(AddressState state) {
    return DynamoDbStateItems.sizeOf(state);
  }

  @Override
  public long maxStateBytes() {
    return MAX_STATE_BYTES;
  }

  /**
   * Removes an address's state, as DynamoDB's TTL deletes an item whose time has come (the runtime
   * sets that time only when nothing in the item needs keeping).
   */
  public synchronized void expire(Address address) {
    states.remove(address);
  }

  /** Every pending timer, for tests and the local runner's status output. */
  public synchronized List<Timer> allTimers() {
    List<Timer> all = new ArrayList<>();
    shards.values().forEach(shard -> all.addAll(shard.values()));
    return all;
  }

  /** Every registration of outboxes not known delivered, for tests and status output. */
  public synchronized List<OutboxEntry> allOutboxes() {
    List<OutboxEntry> all = new ArrayList<>();
    outboxes.values().forEach(shard -> all.addAll(shard.values()));
    return all;
  }

  @Override
  public String toString() {
    return "InMemoryFunctionStore";
  }

  /** Checks every condition before anything changes, as a transaction does. */
  private Map<Address, Set<String>> checkTimerChanges(Commit commit) {
    Map<Address, Set<String>> released = new LinkedHashMap<>();
    for (TimerChange change : commit.timerChanges()) {
      if (change instanceof TimerChange.Schedule schedule) {
        TimerKey key = schedule.timer().key();
        if (timerExists(key)) {
          throw new CommitConflictException("Timer " + key.asString() + " exists already");
        }
      } else if (change instanceof TimerChange.Consume consume) {
        if (!timerExists(consume.key())) {
          throw new CommitConflictException(
              "Timer " + consume.key().asString() + " was consumed or cancelled meanwhile");
        }
      } else if (change instanceof TimerChange.ReleaseToken release) {
        AddressState owner = states.get(release.owner());
        if (owner == null || !release.timer().equals(owner.pendingTokens().get(release.token()))) {
          throw new CommitConflictException(
              "Token '"
                  + release.token()
                  + "' of "
                  + release.owner()
                  + " no longer names timer "
                  + release.timer().asString());
        }
        released.computeIfAbsent(release.owner(), o -> new HashSet<>()).add(release.token());
      }
    }
    return released;
  }

  /** Frees an owner's tokens and bumps its version, as the DynamoDB store's update does. */
  private void releaseTokens(Address owner, Set<String> tokens) {
    AddressState before = states.get(owner);
    states.put(owner, before.withTokensFreed(tokens, before.version() + 1));
  }

  private NavigableMap<String, Timer> timers(int shard) {
    return shards.computeIfAbsent(shard, s -> new TreeMap<>());
  }

  private NavigableMap<String, OutboxEntry> outboxes(int shard) {
    return outboxes.computeIfAbsent(shard, s -> new TreeMap<>());
  }
}
