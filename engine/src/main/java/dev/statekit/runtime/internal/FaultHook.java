package dev.statekit.runtime.internal;

import dev.statekit.function.Address;

/**
 * Called by the runtime between the steps of a batch, so fault-injection tests can make the process
 * "die" at each step by throwing: the exception leaves the batch as a crash would, with whatever
 * was written so far. Set only by the runtime's own tests (through {@code
 * FunctionRuntime.Builder}'s package-private {@code faultHook}); the default does nothing.
 */
@FunctionalInterface
public interface FaultHook {
  /** Does nothing. */
  FaultHook NONE = (step, address) -> {};

  /** The steps of a batch. */
  enum Step {
    /** The batch's states were read; nothing is written yet. */
    LOADED,
    /** The outboxes the batch's commits carry were registered; nothing is committed yet. */
    REGISTERED,
    /** One address's commit was written; its outbox is not delivered yet. */
    COMMITTED,
    /** The batch's outboxes were delivered; they are still registered. */
    DELIVERED,
    /** The delivered outboxes were taken off their registration; nothing is answered yet. */
    SETTLED,
    /** Arrived wake-ups read their timers; nothing is sent or put back yet. */
    WOKEN
  }

  /**
   * Reached {@code step}.
   *
   * @param address the address the step concerns, {@code null} for the whole batch
   */
  void reached(Step step, Address address);
}
