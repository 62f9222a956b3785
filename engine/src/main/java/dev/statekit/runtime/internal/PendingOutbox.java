package dev.statekit.runtime.internal;

import dev.statekit.function.Address;
import dev.statekit.runtime.internal.data.Outbox;

/**
 * A committed outbox to deliver.
 *
 * @param address its address
 * @param version the commit that produced it
 * @param outbox its entries
 */
record PendingOutbox(Address address, long version, Outbox outbox) {}
