package dev.statekit.local.emulation;

/** Invokes a function with a payload, as an event source mapping does. */
@FunctionalInterface
public interface Invoker {
  /**
   * Invokes once.
   *
   * @return the answer
   * @throws RuntimeException if the function failed (the whole batch is retried)
   */
  byte[] invoke(byte[] payload);
}
