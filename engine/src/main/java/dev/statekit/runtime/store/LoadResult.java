package dev.statekit.runtime.store;

import dev.statekit.function.Address;
import java.util.Map;
import java.util.Set;

/**
 * What one {@link FunctionStore#load} read.
 *
 * @param states the state of every requested address ({@link AddressState#absent} if never written)
 * @param existingTimers those of the requested timers that exist
 */
public record LoadResult(Map<Address, AddressState> states, Set<TimerKey> existingTimers) {
  /** Copies the collections. */
  public LoadResult {
    states = Map.copyOf(states);
    existingTimers = Set.copyOf(existingTimers);
  }
}
