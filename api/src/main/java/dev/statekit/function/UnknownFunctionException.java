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
            + shown(type.toString())
            + "; registered: "
            + registered
            + ". Register it, or point the runtime's endpoint at the right service");
    this.type = type;
  }

  /** Whole up to 200 characters, else its start and length: a forged type can be megabytes. */
  private static String shown(String text) {
    if (text.length() <= 200) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(199)) ? 199 : 200;
    return text.substring(0, end) + "... (" + text.length() + " characters)";
  }

  /** The unknown function type. */
  public TypeName type() {
    return type;
  }
}
