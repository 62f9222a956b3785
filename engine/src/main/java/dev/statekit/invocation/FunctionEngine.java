package dev.statekit.invocation;

import dev.statekit.function.Address;
import dev.statekit.function.FunctionInvocationException;
import dev.statekit.function.StatefulFunctionSpec;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.UnknownFunctionException;
import dev.statekit.types.TypeName;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs registered functions on batches of messages, with no transport attached: the StateFun
 * protocol handler and the self-hosted runtime both drive it. Thread-safe; each {@link AddressRun}
 * belongs to one thread. Not for users.
 */
public final class FunctionEngine {
  private final StatefulFunctions functions;
  private final Map<String, Map<String, StatefulFunctionSpec>> byNamespace = new HashMap<>();

  /** An engine for this registry. */
  public FunctionEngine(StatefulFunctions functions) {
    this.functions = functions;
    for (TypeName type : functions.types()) {
      byNamespace
          .computeIfAbsent(type.namespace(), n -> new HashMap<>())
          .put(type.name(), functions.get(type).orElseThrow());
    }
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
  public AddressRun open(Address target) {
    StatefulFunctionSpec spec =
        functions
            .get(target.type())
            .orElseThrow(() -> new UnknownFunctionException(target.type(), functions.types()));
    return open(spec, target);
  }

  /**
   * Starts a batch for {@code namespace/type/id}, as a transport reads it off the wire: the type is
   * looked up without building a {@link TypeName}, and the address reuses the registered one.
   *
   * @throws IllegalArgumentException if the id is empty
   * @throws UnknownFunctionException if no function is registered for the type
   */
  public AddressRun open(String namespace, String type, String id) {
    Map<String, StatefulFunctionSpec> types = byNamespace.get(namespace);
    StatefulFunctionSpec spec = types == null ? null : types.get(type);
    if (spec == null) {
      throw new UnknownFunctionException(TypeName.of(namespace, type), functions.types());
    }
    return open(spec, Address.of(spec.type(), id));
  }

  private static AddressRun open(StatefulFunctionSpec spec, Address target) {
    try {
      return new AddressRun(target, spec.newBatchFunction(), spec.valueSpecs());
    } catch (RuntimeException | StackOverflowError | AssertionError | LinkageError e) {
      // As AddressRun takes them from the function itself: a supplier whose class cannot load
      // fails its messages, each dead-lettered with the error, not every batch it shares.
      throw new FunctionInvocationException(target, 0, "(supplier)", e);
    }
  }
}
