package dev.statekit.runtime.store;

import dev.statekit.function.Address;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where the runtime keeps function state, durable timers, the registrations of outboxes not yet
 * known delivered and the marks that no longer fit in an address's item: the port, with an
 * in-memory adapter ({@link InMemoryFunctionStore}) and a DynamoDB one ({@code
 * DynamoDbFunctionStore}) that pass the same contract tests. Implementations are thread-safe.
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

  /** Reads the latest committed states of {@code addresses}, never stale. */
  Map<Address, AddressState> loadLatest(Collection<Address> addresses);

  /**
   * As {@link #load}, never stale: for addresses this process has just committed (a batch's later
   * rounds), where a stale read would only cost a conflicting commit and a read again.
   */
  LoadResult loadLatest(Collection<Address> addresses, Collection<TimerKey> timers);

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
   * @throws StoreException with {@link StoreException.Reason#INVALID_REQUEST} if the commit is not
   *     one the backend can write at all (more items than a transaction holds, one item twice)
   */
  void commit(Commit commit);

  /**
   * Registers under {@code key} the addresses whose next commits carry outboxes, before those
   * commits: should their delivery not finish, {@link #dueOutboxes} finds them once the key is due.
   * Adds to what the key holds already.
   */
  void registerOutboxes(OutboxKey key, Collection<Address> addresses);

  /**
   * Whether {@code address} is still registered under {@code key}, as of the latest write (its
   * outbox is not known delivered), and if so how many tries to deliver it failed and what they
   * delivered all the same.
   *
   * @return empty if it is not registered there
   */
  Optional<OutboxTries> outboxPending(OutboxKey key, Address address);

  /**
   * Records that the outboxes of {@code addresses} registered under {@code key} were delivered (or
   * dead-lettered). Nothing happens for a key no longer registered.
   */
  void settleOutboxes(OutboxKey key, Collection<Address> addresses);

  /**
   * Removes the registration under {@code key}: every outbox it held was delivered. With {@code
   * registrations} of 0 or more, only if no address was added since {@link OutboxEntry} said that
   * many registrations; returns whether it was removed (or was gone).
   */
  boolean removeOutboxes(OutboxKey key, long registrations);

  /**
   * The registrations of {@code shard} due by {@code dueBy} (epoch ms) and not tried since {@code
   * triedBefore}, earliest first, at most {@code limit}.
   */
  List<OutboxEntry> dueOutboxes(int shard, long dueBy, long triedBefore, int limit);

  /**
   * Records that a try to deliver the outboxes of the addresses of {@code out} registered under
   * {@code key} failed at {@code triedAtMillis}: one attempt more for each, what of each went out
   * all the same added to its {@link OutboxTries#out()}, and no sweep takes the registration up
   * again until {@code triedAtMillis} is long enough ago. Nothing happens for a key no longer
   * registered.
   *
   * @param out by address, what of its outbox this try delivered (may be empty)
   */
  void outboxesTried(OutboxKey key, Map<Address, Set<String>> out, long triedAtMillis);

  /**
   * Keeps marks that leave {@code address}'s item, each until its expiry. A mark whose stored
   * position is already as far or further stays as it is.
   */
  void spillMarks(Address address, Collection<SpilledMark> marks);

  /** The spilled marks of {@code address} among {@code ids}, by id, as of the latest write. */
  Map<String, SpilledMark> spilledMarks(Address address, Collection<String> ids);

  /**
   * Removes a timer whose message was dead-lettered without any address's commit (its target's
   * function is not registered), and frees its owner's {@code token} if the token still names it.
   * Nothing happens if the timer is gone.
   *
   * @param token the owner's cancellation token, or {@code null}
   */
  void dropTimer(TimerKey key, Address owner, String token);

  /**
   * The timers of {@code shard} due by {@code dueBy} (epoch ms) and not sent since {@code
   * sentBefore}, earliest first, at most {@code limit}.
   */
  List<Timer> dueTimers(int shard, long dueBy, long sentBefore, int limit);

  /** Records that a sweep sent the timer at {@code sentAtMillis}; nothing happens if it is gone. */
  void markSent(TimerKey key, long sentAtMillis);

  /**
   * The timer under {@code key} as of the latest write (a strongly consistent read), or empty if it
   * is gone (applied or cancelled) or was never written.
   */
  Optional<Timer> timer(TimerKey key);

  /**
   * The timers of {@code shard} due after {@code after} and by {@code dueBy} (epoch ms) that no
   * wake-up was put for, earliest first, at most {@code limit}.
   */
  List<Timer> timersToWake(int shard, long after, long dueBy, int limit);

  /**
   * Records that a wake-up for the timer was put at {@code atMillis}; nothing happens if it is
   * gone.
   */
  void markWokenUp(TimerKey key, long atMillis);

  /** How many bytes {@code state} takes in this store (for {@link #maxStateBytes()}). */
  long sizeOf(AddressState state);

  /** The most bytes one address's state may take. */
  long maxStateBytes();
}
