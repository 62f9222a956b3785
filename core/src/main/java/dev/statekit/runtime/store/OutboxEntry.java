package dev.statekit.runtime.store;

import dev.statekit.function.Address;
import java.util.Objects;
import java.util.Set;

/**
 * A registration of outboxes as a sweep reads it (see {@link FunctionStore#dueOutboxes}).
 *
 * @param key the registration
 * @param addresses the addresses whose outboxes are not known delivered yet
 * @param registrations how many times addresses were added (the sweep removes the registration only
 *     if none was added since it read it)
 * @param attempts how many sweeps tried to deliver them
 * @param triedAtMillis when a sweep last tried, 0 if none did
 */
public record OutboxEntry(
    OutboxKey key, Set<Address> addresses, long registrations, int attempts, long triedAtMillis) {
  /** Checks and copies the parts. */
  public OutboxEntry {
    Objects.requireNonNull(key, "key");
    addresses = Set.copyOf(addresses);
  }
}
