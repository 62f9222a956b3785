package dev.statekit.egress;

import dev.statekit.StateKitException;

/**
 * A sink could not deliver records. {@link #reason()} says whether the runtime's later delivery can
 * succeed ({@link Reason#UNAVAILABLE}) or the records themselves are refused ({@link
 * Reason#INVALID_REQUEST}: too large, no destination); the message says which sink and why.
 */
public final class EgressException extends StateKitException {
  private static final long serialVersionUID = 1L;

  /** A failure that passes (the sink kept refusing for now): the runtime delivers again later. */
  public EgressException(String message, Throwable cause) {
    this(Reason.UNAVAILABLE, message, cause);
  }

  /** A failure of {@code reason} that says which sink and why. */
  public EgressException(Reason reason, String message, Throwable cause) {
    super(reason, message, cause);
  }
}
