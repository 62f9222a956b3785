package dev.statekit.runtime.simulation;

import dev.statekit.function.Address;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.Commit;
import dev.statekit.runtime.store.FunctionStore;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.runtime.store.LoadResult;
import dev.statekit.runtime.store.OutboxEntry;
import dev.statekit.runtime.store.OutboxKey;
import dev.statekit.runtime.store.SpilledMark;
import dev.statekit.runtime.store.StoreUnavailableException;
import dev.statekit.runtime.store.Timer;
import dev.statekit.runtime.store.TimerChange;
import dev.statekit.runtime.store.TimerKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * DynamoDB as the simulated processes see it: the in-memory store (conditional writes, the
 * transaction rules, item sizes as DynamoDB counts them) behind calls that take time, fail while
 * the store is down (as the adapter reports it once its retries are spent), sometimes fail after
 * they were applied (the answer was lost), and whose eventually consistent reads may return a state
 * up to a second old. The one store every simulated process shares.
 */
final class SimStore implements FunctionStore {
  private static final long STALENESS_MILLIS = 1_000;

  private final Simulation sim;
  final InMemoryFunctionStore real = new InMemoryFunctionStore();
  private final Map<Address, List<Version>> history = new HashMap<>();
  private final Map<TimerKey, Long> removedTimers = new HashMap<>();
  private final Map<Address, Long> largest = new HashMap<>();

  SimStore(Simulation sim) {
    this.sim = sim;
  }

  /** The largest item each address had, in bytes. */
  Map<Address, Long> largestItems() {
    return largest;
  }

  @Override
  public LoadResult load(Collection<Address> addresses, Collection<TimerKey> timers) {
    return call(
        "load " + addresses.size() + " addresses",
        false,
        () -> {
          LoadResult latest = real.load(addresses, timers);
          Map<Address, AddressState> states = new HashMap<>(latest.states());
          Set<TimerKey> existing = new HashSet<>(latest.existingTimers());
          for (Address address : addresses) {
            if (sim.faults().stale(sim)) {
              states.put(address, staleState(address, states.get(address)));
            }
          }
          for (TimerKey timer : timers) {
            Long removed = removedTimers.get(timer);
            if (removed != null
                && sim.now() - removed < STALENESS_MILLIS
                && sim.faults().stale(sim)) {
              existing.add(timer);
            }
          }
          return new LoadResult(states, existing);
        });
  }

  private AddressState staleState(Address address, AddressState latest) {
    long asOf = sim.now() - sim.between(0, STALENESS_MILLIS);
    AddressState seen = AddressState.absent(address);
    for (Version version : history.getOrDefault(address, List.of())) {
      if (version.at > asOf) {
        return seen;
      }
      seen = version.state;
    }
    return latest;
  }

  @Override
  public LoadResult loadLatest(Collection<Address> addresses, Collection<TimerKey> timers) {
    return call(
        "load latest " + addresses.size() + " addresses",
        false,
        () -> real.loadLatest(addresses, timers));
  }

  @Override
  public Map<Address, AddressState> loadLatest(Collection<Address> addresses) {
    return call("read latest " + addresses, false, () -> real.loadLatest(addresses));
  }

  @Override
  public AddressState reload(Address address) {
    return call("reload " + address, false, () -> real.reload(address));
  }

  @Override
  public boolean timerExists(TimerKey key) {
    return call("timer exists " + key.id(), false, () -> real.timerExists(key));
  }

  /**
   * Whether a commit whose answer was lost is sometimes reported as a conflict, as the DynamoDB
   * adapter reports it: DynamoDbFunctionStore retries a 5xx or a broken connection (RetryPolicy),
   * and the retry of a conditional PutItem / TransactWriteItems that the first attempt applied
   * fails its own condition (ConditionalCheckFailed), which the adapter turns into a
   * CommitConflictException. DynamoDB documents that a 500 on a write leaves it unknown whether it
   * was applied. Off with -Dsimulation.adapterRetry=false.
   */
  private static final boolean ADAPTER_RETRY =
      Boolean.parseBoolean(System.getProperty("simulation.adapterRetry", "true"));

  @Override
  public void commit(Commit commit) {
    String what = "commit " + commit.state().address() + " v" + commit.state().version();
    try {
      doCommit(commit, what);
    } catch (StoreUnavailableException lost) {
      // No extra draw (seeds keep their schedules): half the lost answers, by the clock's parity,
      // come back through the adapter's retry as a conflict with the commit's own write.
      if (ADAPTER_RETRY && lost.getMessage().startsWith("No answer") && (sim.now() & 1) == 0) {
        sim.trace("  the adapter retried '" + what + "' and its condition failed on its own write");
        throw new dev.statekit.runtime.store.CommitConflictException(
            "Version "
                + (commit.state().version() - 1)
                + " of "
                + commit.state().address()
                + " is outdated (the retry of a write whose answer was lost)");
      }
      throw lost;
    }
  }

  private void doCommit(Commit commit, String what) {
    run(
        what,
        () -> {
          real.commit(commit);
          Set<Address> changed = new HashSet<>();
          changed.add(commit.state().address());
          for (TimerChange change : commit.timerChanges()) {
            if (change instanceof TimerChange.ReleaseToken release) {
              changed.add(release.owner());
            } else if (change instanceof TimerChange.Consume consume) {
              removedTimers.put(consume.key(), sim.now());
            } else if (change instanceof TimerChange.Cancel cancel) {
              removedTimers.put(cancel.key(), sim.now());
            }
          }
          changed.forEach(this::remember);
        });
  }

  private void remember(Address address) {
    AddressState state = real.reload(address);
    history.computeIfAbsent(address, a -> new ArrayList<>()).add(new Version(sim.now(), state));
    largest.merge(address, real.sizeOf(state), Math::max);
  }

  @Override
  public void registerOutboxes(OutboxKey key, Collection<Address> addresses) {
    run("register outboxes of " + addresses, () -> real.registerOutboxes(key, addresses));
  }

  @Override
  public java.util.Optional<dev.statekit.runtime.store.OutboxTries> outboxPending(
      OutboxKey key, Address address) {
    return call("outbox pending " + address, false, () -> real.outboxPending(key, address));
  }

  @Override
  public void settleOutboxes(OutboxKey key, Collection<Address> addresses) {
    run("settle outboxes of " + addresses, () -> real.settleOutboxes(key, addresses));
  }

  @Override
  public boolean removeOutboxes(OutboxKey key, long registrations) {
    return call("remove outboxes " + key.id(), true, () -> real.removeOutboxes(key, registrations));
  }

  @Override
  public List<OutboxEntry> dueOutboxes(int shard, long dueBy, long triedBefore, int limit) {
    return call(
        "due outboxes of shard " + shard,
        false,
        () -> real.dueOutboxes(shard, dueBy, triedBefore, limit));
  }

  @Override
  public void outboxesTried(
      OutboxKey key, java.util.Map<Address, java.util.Set<String>> out, long triedAtMillis) {
    run(
        "outboxes tried " + key.id() + " " + out.keySet(),
        () -> real.outboxesTried(key, out, triedAtMillis));
  }

  @Override
  public void spillMarks(Address address, Collection<SpilledMark> marks) {
    run("spill " + marks.size() + " marks of " + address, () -> real.spillMarks(address, marks));
  }

  @Override
  public Map<String, SpilledMark> spilledMarks(Address address, Collection<String> ids) {
    return call(
        "read " + ids.size() + " spilled marks of " + address,
        false,
        () -> real.spilledMarks(address, ids));
  }

  @Override
  public void dropTimer(TimerKey key, Address owner, String token) {
    run(
        "drop timer " + key.id(),
        () -> {
          real.dropTimer(key, owner, token);
          removedTimers.put(key, sim.now());
          remember(owner);
        });
  }

  @Override
  public List<Timer> dueTimers(int shard, long dueBy, long sentBefore, int limit) {
    return call(
        "due timers of shard " + shard,
        false,
        () -> real.dueTimers(shard, dueBy, sentBefore, limit));
  }

  @Override
  public void markSent(TimerKey key, long sentAtMillis) {
    run("mark sent " + key.id(), () -> real.markSent(key, sentAtMillis));
  }

  @Override
  public java.util.Optional<Timer> timer(TimerKey key) {
    return call("read timer " + key.id(), false, () -> real.timer(key));
  }

  @Override
  public List<Timer> timersToWake(int shard, long after, long dueBy, int limit) {
    return call(
        "timers to wake of shard " + shard,
        false,
        () -> real.timersToWake(shard, after, dueBy, limit));
  }

  @Override
  public void markWokenUp(TimerKey key, long atMillis) {
    run("mark woken up " + key.id(), () -> real.markWokenUp(key, atMillis));
  }

  @Override
  public long sizeOf(AddressState state) {
    return real.sizeOf(state);
  }

  @Override
  public long maxStateBytes() {
    return real.maxStateBytes();
  }

  private void run(String what, Runnable write) {
    call(
        what,
        true,
        () -> {
          write.run();
          return null;
        });
  }

  /**
   * One call: it takes time, it fails while the store is down, a write may fail after it was
   * applied, and the process may die right after.
   */
  private <T> T call(String what, boolean write, Supplier<T> call) {
    sim.step("store " + what);
    if (Faults.within(sim.faults().storeDown, sim.now())) {
      throw new StoreUnavailableException(
          "DynamoDB kept refusing (simulated outage): " + what, null);
    }
    T result = call.get();
    if (write && sim.faults().ambiguous(sim)) {
      sim.trace("  the answer to '" + what + "' was lost");
      throw new StoreUnavailableException("No answer from DynamoDB (simulated): " + what, null);
    }
    return result;
  }

  private record Version(long at, AddressState state) {}
}
