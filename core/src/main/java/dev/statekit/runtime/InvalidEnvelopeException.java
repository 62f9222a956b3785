package dev.statekit.runtime;

import dev.statekit.StateKitException;

/**
 * A payload or queue message body is not a valid envelope: not JSON, a field missing or of the
 * wrong kind, a target no registered function type matches, a value that does not fit its type name
 * ({@link Reason#INVALID_REQUEST}). The message says what was wrong and how the envelope should
 * look.
 */
public final class InvalidEnvelopeException extends StateKitException {
  private static final long serialVersionUID = 1L;

  /** What was wrong. */
  public InvalidEnvelopeException(String message) {
    super(Reason.INVALID_REQUEST, message);
  }

  /** What was wrong, and the underlying error. */
  public InvalidEnvelopeException(String message, Throwable cause) {
    super(Reason.INVALID_REQUEST, message, cause);
  }
}
