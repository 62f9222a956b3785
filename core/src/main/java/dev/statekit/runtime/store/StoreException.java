package dev.statekit.runtime.store;

/**
 * A function store failed; the subclasses say whether retrying can help. Adapters translate their
 * backend's exceptions into these.
 */
public class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A failure with a message that says what went wrong. */
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A failure with a message that says what went wrong. */
  public StoreException(String message) {
    super(message);
  }
}
