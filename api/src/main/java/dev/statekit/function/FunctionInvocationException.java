package dev.statekit.function;

import dev.statekit.StateKitException;

/**
 * A function failed on a message: it threw, or one of its values could not be read or written. The
 * message's effects were dropped; the cause says what went wrong.
 */
public final class FunctionInvocationException extends StateKitException {
  private static final long serialVersionUID = 1L;

  private final transient Address address;
  private final int invocationIndex;

  /**
   * For the message at {@code invocationIndex} (0-based) of a batch for {@code address}.
   *
   * @param argumentType the type name of the message's value
   */
  public FunctionInvocationException(
      Address address, int invocationIndex, String argumentType, Throwable cause) {
    super(
        Reason.FAILED,
        "Function "
            + address
            + " failed on message "
            + (invocationIndex + 1)
            + " of its batch (a "
            + argumentType
            + "): "
            + cause.getClass().getName()
            + (cause.getMessage() == null ? "" : ": " + cause.getMessage()),
        cause);
    this.address = address;
    this.invocationIndex = invocationIndex;
  }

  /** The address the failing message went to. */
  public Address address() {
    return address;
  }

  /** The 0-based position of the failing message in its batch. */
  public int invocationIndex() {
    return invocationIndex;
  }
}
