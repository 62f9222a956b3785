package dev.statekit.runtime.store;

import java.util.List;
import java.util.Objects;

/**
 * One conditional write of an address: its new state, accepted only if the stored version is still
 * {@code expectedVersion}, with the timer changes that go with it (all or nothing).
 *
 * @param state the new state; its version is {@code expectedVersion + 1}
 * @param expectedVersion the version the state was computed from (0: the address was absent)
 * @param timerChanges timers scheduled, cancelled or consumed by the same commit
 */
public record Commit(AddressState state, long expectedVersion, List<TimerChange> timerChanges) {
  /** Checks the versions. */
  public Commit {
    Objects.requireNonNull(state, "state");
    timerChanges = List.copyOf(timerChanges);
    if (state.version() != expectedVersion + 1) {
      throw new IllegalArgumentException(
          "A commit's state has version expectedVersion + 1 ("
              + (expectedVersion + 1)
              + "), got "
              + state.version());
    }
  }
}
