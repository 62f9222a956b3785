package dev.statekit.runtime.store;

import dev.statekit.function.Address;
import java.util.Collection;
import java.util.List;

/**
 * Where the runtime keeps function state and durable timers: the port, with an in-memory adapter
 * ({@link InMemoryFunctionStore}) and a DynamoDB one ({@link DynamoDbFunctionStore}) that pass the
 * same contract tests. Implementations are thread-safe.
 *
 * <p>Errors are this package's exceptions: {@link CommitConflictException} when a conditional write
 * lost a race, {@link StateTooLargeException} when a state would not fit, {@link
 * StoreUnavailableException} when the backend kept refusing for a passing reason, {@link
 * StoreException} otherwise.
 */
public interface FunctionStore {
  /**
   * Reads the states of {@code addresses} and which of {@code timers} exist, in as few requests as
   * the backend allows. Reads may be slightly stale; {@link #commit} catches that with its version
   * condition.
   */
  LoadResult load(Collection<Address> addresses, Collection<TimerKey> timers);

  /** Reads the latest committed state of {@code address} (after a conflict). */
  AddressState reload(Address address);

  /** Whether the timer exists, as of the latest commit. */
  boolean timerExists(TimerKey key);

  /**
   * Writes the state if its stored version is still the expected one, with its timer changes, all
   * or nothing.
   *
   * @throws CommitConflictException if the version or a timer changed meanwhile
   * @throws StateTooLargeException if the state would not fit; nothing was written
   */
  void commit(Commit commit);

  /**
   * Records that the outbox of {@code outboxVersion} was delivered, unless a later commit replaced
   * it (then nothing happens). Costs one small write; saves a later reader from delivering again.
   */
  void recordDelivery(Address address, long outboxVersion);

  /**
   * The timers of {@code shard} due by {@code dueBy} (epoch ms) and not sent since {@code
   * sentBefore}, earliest first, at most {@code limit}.
   */
  List<Timer> dueTimers(int shard, long dueBy, long sentBefore, int limit);

  /** Records that a sweep sent the timer at {@code sentAtMillis}; nothing happens if it is gone. */
  void markSent(TimerKey key, long sentAtMillis);

  /** How many bytes {@code state} takes in this store (for {@link #maxStateBytes()}). */
  long sizeOf(AddressState state);

  /** The most bytes one address's state may take. */
  long maxStateBytes();
}
