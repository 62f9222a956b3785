package dev.statekit.runtime.simulation;

/**
 * The simulated process dies here: thrown from a step, it unwinds whatever the runtime was doing
 * (an {@link Error}, so no {@code catch (RuntimeException)} of the runtime's stops it), and the
 * worker comes back as a fresh process.
 */
final class Crash extends Error {
  private static final long serialVersionUID = 1L;

  Crash(String where) {
    super("simulated crash at " + where, null, false, false);
  }
}
