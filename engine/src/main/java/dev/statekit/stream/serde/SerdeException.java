package dev.statekit.stream.serde;

import dev.statekit.StateKitException;

/** A value could not be encoded or decoded; the message names the type and the reason. */
public final class SerdeException extends StateKitException {
  private static final long serialVersionUID = 1L;

  /** An error with its cause. */
  public SerdeException(String message, Throwable cause) {
    super(Reason.INVALID_REQUEST, message, cause);
  }

  /** An error without a cause. */
  public SerdeException(String message) {
    super(Reason.INVALID_REQUEST, message);
  }
}
