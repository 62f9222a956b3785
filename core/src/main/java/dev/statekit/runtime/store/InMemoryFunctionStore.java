package dev.statekit.runtime.store;

import dev.statekit.function.Address;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * The function store in this JVM's memory: the embedded default and the store of fast tests. It
 * keeps DynamoDB's rules — conditional commits, all-or-nothing timer changes, the same size limit
 * counted the same way — so an application tested here behaves the same on {@link
 * DynamoDbFunctionStore}. Nothing survives the JVM.
 */
public final class InMemoryFunctionStore implements FunctionStore {
  private static final long MAX_STATE_BYTES = DynamoDbItemSize.DYNAMODB_ITEM_LIMIT - 1024;

  private final Map<Address, AddressState> states = new HashMap<>();
  private final Map<Integer, NavigableMap<String, Timer>> shards = new HashMap<>();

  /** An empty store. */
  public InMemoryFunctionStore() {}

  @Override
  public synchronized LoadResult load(Collection<Address> addresses, Collection<TimerKey> timers) {
    Map<Address, AddressState> found = new HashMap<>();
    for (Address address : addresses) {
      found.put(address, states.getOrDefault(address, AddressState.absent(address)));
    }
    Set<TimerKey> existing = new HashSet<>();
    for (TimerKey timer : timers) {
      if (timers(timer.shard()).containsKey(DynamoDbTimerItems.sortKey(timer))) {
        existing.add(timer);
      }
    }
    return new LoadResult(found, existing);
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
    Map<Address, Map<String, TimerKey>> released = checkTimerChanges(commit);
    states.put(state.address(), state);
    for (TimerChange change : commit.timerChanges()) {
      if (change instanceof TimerChange.Schedule) {
        Timer timer = ((TimerChange.Schedule) change).timer();
        timers(timer.key().shard()).put(DynamoDbTimerItems.sortKey(timer.key()), timer);
      } else if (change instanceof TimerChange.Cancel) {
        TimerKey key = ((TimerChange.Cancel) change).key();
        timers(key.shard()).remove(DynamoDbTimerItems.sortKey(key));
      } else if (change instanceof TimerChange.Consume) {
        TimerKey key = ((TimerChange.Consume) change).key();
        timers(key.shard()).remove(DynamoDbTimerItems.sortKey(key));
      }
    }
    released.forEach(
        (owner, tokens) -> {
          AddressState before = states.get(owner);
          Map<String, TimerKey> remaining = new LinkedHashMap<>(before.pendingTokens());
          remaining.keySet().removeAll(tokens.keySet());
          states.put(
              owner,
              new AddressState(
                  owner,
                  before.version() + 1,
                  before.values(),
                  remaining,
                  before.runtimeData(),
                  before.outboxVersion(),
                  before.outboxDelivered(),
                  before.expiresAtSeconds()));
        });
  }

  @Override
  public synchronized void recordDelivery(Address address, long outboxVersion) {
    AddressState state = states.get(address);
    if (state != null && state.outboxVersion() == outboxVersion) {
      states.put(address, state.withOutboxDelivered());
    }
  }

  @Override
  public synchronized List<Timer> dueTimers(int shard, long dueBy, long sentBefore, int limit) {
    List<Timer> due = new ArrayList<>();
    for (Timer timer : timers(shard).headMap(DynamoDbTimerItems.sortKeyAfter(dueBy)).values()) {
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
        .computeIfPresent(
            DynamoDbTimerItems.sortKey(key),
            (k, t) -> new Timer(t.key(), t.groupId(), t.body(), sentAtMillis));
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

  @Override
  public String toString() {
    return "InMemoryFunctionStore";
  }

  /** Checks every condition before anything changes, as a transaction does. */
  private Map<Address, Map<String, TimerKey>> checkTimerChanges(Commit commit) {
    Map<Address, Map<String, TimerKey>> released = new LinkedHashMap<>();
    java.util.Set<TimerKey> touched = new java.util.HashSet<>();
    for (TimerChange change : commit.timerChanges()) {
      TimerKey timer = timerOf(change);
      if (timer != null && !touched.add(timer)) {
        // DynamoDB refuses a transaction that names one item twice; so does this store.
        throw new StoreException(
            StoreException.Reason.INVALID_REQUEST,
            "A commit of "
                + commit.state().address()
                + " changes timer "
                + timer.asString()
                + " twice");
      }
      if (change instanceof TimerChange.Schedule) {
        TimerKey key = ((TimerChange.Schedule) change).timer().key();
        if (timerExists(key)) {
          throw new CommitConflictException("Timer " + key.asString() + " exists already");
        }
      } else if (change instanceof TimerChange.Consume) {
        TimerKey key = ((TimerChange.Consume) change).key();
        if (!timerExists(key)) {
          throw new CommitConflictException(
              "Timer " + key.asString() + " was consumed or cancelled meanwhile");
        }
      } else if (change instanceof TimerChange.ReleaseToken) {
        TimerChange.ReleaseToken release = (TimerChange.ReleaseToken) change;
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
        released
            .computeIfAbsent(release.owner(), o -> new LinkedHashMap<>())
            .put(release.token(), release.timer());
      }
    }
    return released;
  }

  private static TimerKey timerOf(TimerChange change) {
    if (change instanceof TimerChange.Schedule) {
      return ((TimerChange.Schedule) change).timer().key();
    }
    if (change instanceof TimerChange.Cancel) {
      return ((TimerChange.Cancel) change).key();
    }
    if (change instanceof TimerChange.Consume) {
      return ((TimerChange.Consume) change).key();
    }
    return null;
  }

  private NavigableMap<String, Timer> timers(int shard) {
    return shards.computeIfAbsent(shard, s -> new TreeMap<>());
  }
}
