package dev.statekit.function;

import dev.statekit.StateKitException;
import dev.statekit.types.TypeName;

/** A message was addressed to a function type that no function is registered for. */
public final class UnknownFunctionException extends StateKitException {
  private static final long serialVersionUID = 1L;

  private final TypeName type;

  /** For a message to {@code type}, given the types that are registered. */
  public UnknownFunctionException(TypeName type, Iterable<TypeName> registered) {
    super(
        Reason.INVALID_REQUEST,
        "No function is registered for type "
            + type
            + "; registered: "
            + registered
            + ". Register it, or point the runtime's endpoint at the right service");
    this.type = type;
  }

  /** The unknown function type. */
  public TypeName type() {
    return type;
  }
}
