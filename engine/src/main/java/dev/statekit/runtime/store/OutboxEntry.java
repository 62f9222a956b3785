package dev.statekit.runtime.store;

import dev.statekit.function.Address;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A registration of outboxes as a sweep reads it (see {@link FunctionStore#dueOutboxes}).
 *
 * @param key the registration
 * @param addresses the addresses whose outboxes are not known delivered yet
 * @param registrations how many times addresses were added (the sweep removes the registration only
 *     if none was added since it read it)
 * @param attempts per address, how many tries to deliver its outbox failed (absent: none)
 * @param out per address, what of its outbox earlier tries are known to have delivered ({@link
 *     OutboxTries#out()}; absent: nothing)
 * @param triedAtMillis when a try last failed, 0 if none did
 */
public record OutboxEntry(
    OutboxKey key,
    Set<Address> addresses,
    long registrations,
    Map<Address, Integer> attempts,
    Map<Address, Set<String>> out,
    long triedAtMillis) {
  /** Checks and copies the parts. */
  public OutboxEntry {
    Objects.requireNonNull(key, "key");
    addresses = Set.copyOf(addresses);
    attempts = Map.copyOf(attempts);
    Map<Address, Set<String>> copied = new java.util.HashMap<>();
    out.forEach((address, items) -> copied.put(address, Set.copyOf(items)));
    out = Map.copyOf(copied);
  }

  /** How many tries to deliver {@code address}'s outbox failed. */
  public int attempts(Address address) {
    return attempts.getOrDefault(address, 0);
  }

  /** How far earlier tries delivered {@code address}'s outbox. */
  public OutboxTries tries(Address address) {
    return new OutboxTries(attempts(address), out.getOrDefault(address, Set.of()));
  }
}
