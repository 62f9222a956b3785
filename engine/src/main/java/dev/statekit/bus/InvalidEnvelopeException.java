package dev.statekit.bus;

import dev.statekit.StateKitException;

/**
 * A payload or queue message body is not a valid envelope: not JSON, a field missing or of the
 * wrong kind, a target no registered function type matches, a value that does not fit its type name
 * ({@link Reason#INVALID_REQUEST}). The message says what was wrong and how the envelope should
 * look.
 */
public final class InvalidEnvelopeException extends StateKitException {
  private static final long serialVersionUID = 1L;

  private final boolean targetUnknown;

  /** What was wrong. */
  public InvalidEnvelopeException(String message) {
    super(Reason.INVALID_REQUEST, message);
    this.targetUnknown = false;
  }

  private InvalidEnvelopeException(String message, boolean targetUnknown) {
    super(Reason.INVALID_REQUEST, message);
    this.targetUnknown = targetUnknown;
  }

  /**
   * The envelope is well formed but no registered function type matches its target: perhaps one a
   * deploy removed, so the message may have been applied before.
   */
  public static InvalidEnvelopeException targetUnknown(String message) {
    return new InvalidEnvelopeException(message, true);
  }

  /** Whether no registered function matched the target (see {@link #targetUnknown}). */
  public boolean isTargetUnknown() {
    return targetUnknown;
  }

  /** What was wrong, and the underlying error. */
  public InvalidEnvelopeException(String message, Throwable cause) {
    super(Reason.INVALID_REQUEST, message, cause);
    this.targetUnknown = false;
  }
}
