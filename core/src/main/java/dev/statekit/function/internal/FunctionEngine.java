package dev.statekit.function.internal;

import dev.statekit.function.Address;
import dev.statekit.function.FunctionInvocationException;
import dev.statekit.function.StatefulFunctionSpec;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.UnknownFunctionException;

/**
 * Runs registered functions on batches of messages, with no transport attached: the StateFun
 * protocol handler and the self-hosted runtime both drive it. Thread-safe; each {@link BatchRun}
 * belongs to one thread. Not for users.
 */
public final class FunctionEngine {
  private final StatefulFunctions functions;

  /** An engine for this registry. */
  public FunctionEngine(StatefulFunctions functions) {
    this.functions = functions;
  }

  /** The registry. */
  public StatefulFunctions functions() {
    return functions;
  }

  /**
   * Starts a batch for {@code target}.
   *
   * @throws UnknownFunctionException if no function is registered for the target's type
   * @throws FunctionInvocationException if the function's supplier fails
   */
  public BatchRun open(Address target) {
    StatefulFunctionSpec spec =
        functions
            .get(target.type())
            .orElseThrow(() -> new UnknownFunctionException(target.type(), functions.types()));
    try {
      return new BatchRun(target, spec.newBatchFunction(), spec.valueSpecs());
    } catch (RuntimeException e) {
      throw new FunctionInvocationException(target, 0, "(supplier)", e);
    }
  }
}
