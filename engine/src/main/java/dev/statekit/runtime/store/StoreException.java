package dev.statekit.runtime.store;

import dev.statekit.StateKitException;

/**
 * A function store failed; {@link #reason()} says whether retrying can help, and the subclasses
 * name the common cases. Adapters translate their backend's exceptions into these.
 */
public class StoreException extends StateKitException {
  private static final long serialVersionUID = 1L;

  /** A failure of {@code reason} with a message that says what went wrong. */
  public StoreException(Reason reason, String message, Throwable cause) {
    super(reason, message, cause);
  }

  /** A failure of {@code reason} with a message that says what went wrong. */
  public StoreException(Reason reason, String message) {
    super(reason, message);
  }
}
