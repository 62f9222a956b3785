package dev.statekit.runtime;

import dev.statekit.runtime.internal.FaultHook;
import dev.statekit.runtime.internal.RuntimeSettings;
import java.util.random.RandomGenerator;

/**
 * Lets the simulation (in {@code dev.statekit.runtime.simulation}) reach the builder's test seams,
 * which are package-private so that users never see them.
 */
public final class SimulationAccess {
  private SimulationAccess() {}

  /** {@code builder} with the simulation's fault hook and its sources of nondeterminism. */
  public static FunctionRuntime.Builder deterministic(
      FunctionRuntime.Builder builder,
      RandomGenerator random,
      RuntimeSettings.Pauses pauses,
      FaultHook hook) {
    return builder.deterministic(random, pauses).faultHook(hook);
  }
}
