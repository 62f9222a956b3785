package dev.statekit.function;

import dev.statekit.StateKitException;
import dev.statekit.types.TypeName;

/**
 * A persisted value arrived with a type other than the one the function declares for it, e.g. after
 * the function changed a value's type while the runtime kept values of the old one.
 */
public final class IncompatibleStateException extends StateKitException {
  private static final long serialVersionUID = 1L;

  /** For the state {@code stateName} of {@code function}. */
  public IncompatibleStateException(
      TypeName function, String stateName, String declaredType, String receivedType) {
    super(
        Reason.INVALID_REQUEST,
        "State '"
            + stateName
            + "' of function "
            + function
            + " arrived as a "
            + receivedType
            + " but the function declares it as a "
            + declaredType
            + "; declare a new state name for the new type, or remove the old value first");
  }
}
