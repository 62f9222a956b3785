package dev.statekit.runtime;

/**
 * Sees each invocation the runtime ran, once its outcome is settled: applied (its effects
 * committed), dead-lettered, or failed (it comes again). A console, a test or a debugger registers
 * one with {@link FunctionRuntime.Builder#observer}; with none registered the runtime records
 * nothing and allocates nothing for it.
 *
 * <p>Called on the runtime's worker threads, possibly at once from several: keep it quick and
 * thread-safe (hand the record to a bounded buffer, not to the network). What it throws is logged
 * and ignored: an observer never changes what the runtime does. A message that was not run (a
 * repeat dropped, a message after a failed one in its group, one refused before running) is not
 * observed.
 */
@FunctionalInterface
public interface InvocationObserver {
  /** The observer that observes nothing: the default. */
  InvocationObserver NONE = invocation -> {};

  /** One invocation, settled. */
  void observed(ObservedInvocation invocation);
}
