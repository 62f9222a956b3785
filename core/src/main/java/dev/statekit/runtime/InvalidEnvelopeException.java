package dev.statekit.runtime;

/**
 * A payload or queue message body is not a valid envelope: not JSON, a field missing or of the
 * wrong kind, a target no registered function type matches, a value that does not fit its type
 * name. The message says what was wrong and how the envelope should look.
 */
public final class InvalidEnvelopeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What was wrong. */
  public InvalidEnvelopeException(String message) {
    super(message);
  }

  /** What was wrong, and the underlying error. */
  public InvalidEnvelopeException(String message, Throwable cause) {
    super(message, cause);
  }
}
