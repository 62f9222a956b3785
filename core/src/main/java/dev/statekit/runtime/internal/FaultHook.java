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
    /** One address's commit was written; its outbox is not delivered yet. */
    COMMITTED,
    /** Every outbox of the batch was delivered; the batch is not answered (acknowledged) yet. */
    DELIVERED
  }

  /**
   * Reached {@code step}.
   *
   * @param address the address the step concerns, {@code null} for the whole batch
   */
  void reached(Step step, Address address);
}
